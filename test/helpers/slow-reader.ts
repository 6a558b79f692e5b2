import { connect } from 'node:net';

/**
 * A Wikidata Query Service answer (SPARQL JSON results, the format of
 * test/fixtures/wikidata-sparql/heritage_muenchen_Q1726.json) with `rows` monuments, each with a
 * label of `labelChars` characters: a large heritage list (`?limit=all`) for slow-reader tests.
 */
export function largeHeritageAnswer(rows: number, labelChars = 400): unknown {
  const bindings = Array.from({ length: rows }, (_, i) => ({
    item: { type: 'uri', value: `http://www.wikidata.org/entity/Q${900001 + i}` },
    image: { type: 'uri', value: `http://commons.wikimedia.org/wiki/Special:FilePath/Denkmal%20${i}.jpg` },
    address: { 'xml:lang': 'de', type: 'literal', value: `Musterstraße ${i}, 80331 München` },
    article: { type: 'uri', value: `https://de.wikipedia.org/wiki/Denkmal_${i}` },
    coord: { datatype: 'http://www.opengis.net/ont/geosparql#wktLiteral', type: 'literal', value: `Point(${11.5 + i / 1e5} ${48.1 + i / 1e5})` },
    itemLabel: { 'xml:lang': 'de', type: 'literal', value: `Baudenkmal ${i} `.padEnd(labelChars, 'x') },
    designationLabel: { 'xml:lang': 'de', type: 'literal', value: 'Baudenkmal in Bayern' },
  }));
  return { head: { vars: ['item', 'itemLabel', 'designationLabel', 'coord', 'image', 'address', 'article'] }, results: { bindings } };
}

/** What a slow reader got: the head's Content-Length and the body bytes that arrived before the server closed. */
export interface SlowRead {
  status: number;
  contentLength: number;
  body: Buffer;
  /** Whether the connection ended with an orderly close (FIN), not a reset. */
  clean: boolean;
}

/**
 * One GET on a raw connection whose reader takes at most `bytesPerSecond`: it pauses the socket
 * after each chunk for as long as the chunk "took", so the server's writes back up into its
 * process, as behind a slow mobile link. `onBytes` sees the running count (to act mid-download).
 * Reads until the server closes the connection.
 */
export function slowGet(port: number, path: string, bytesPerSecond: number, onBytes: (received: number) => void = () => {}): Promise<SlowRead> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let received = 0;
    let clean = true;
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      received += d.length;
      onBytes(received);
      socket.pause();
      setTimeout(() => socket.resume(), Math.ceil((d.length / bytesPerSecond) * 1000));
    });
    socket.on('error', () => (clean = false));
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const head = all.toString('latin1', 0, Math.max(0, end));
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        contentLength: Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? NaN),
        body: end < 0 ? Buffer.alloc(0) : all.subarray(end + 4),
        clean,
      });
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  });
}
