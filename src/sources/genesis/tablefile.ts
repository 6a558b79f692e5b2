import type { SourceHttp } from '../../core/adapter-http.ts';
import type { UpstreamResponse } from '../../core/adapter-http.ts';
import { UpstreamError } from '../../core/upstream-error.ts';
import type { Store } from '../../core/store.ts';
import { parseFfcsv, type FfcsvRow } from './ffcsv.ts';
import { firstCsvInZip, isZip } from './zip.ts';

export interface TableRequest {
  table: string;
  variable: string;
  key: string;
  /** The newest N periods (`timeslices`); the newest alone can be all placeholders. */
  periods: number;
}

export type TableAnswer =
  | { status: 'ok'; rows: FfcsvRow[] }
  /** Status 104: the server holds no object for this selection (e.g. a key not in the table). */
  | { status: 'empty'; message: string };

interface GenesisStatus {
  Code?: number | string;
  Content?: string;
  Type?: string;
}

/** The `Status` block of an enveloped answer, or the flat `{Code, Content, Type}` of an auth failure. */
function statusOf(body: unknown): GenesisStatus | null {
  if (!body || typeof body !== 'object') return null;
  const o = body as Record<string, unknown>;
  if (o.Status && typeof o.Status === 'object') return o.Status as GenesisStatus;
  if ('Code' in o && 'Content' in o) return o as GenesisStatus;
  return null;
}

const codeOf = (s: GenesisStatus) => Number(s.Code);
const isErrorType = (s: GenesisStatus) => /^(error|fehler)$/i.test(String(s.Type ?? ''));

/** 98 = table too large for a direct answer; the server then works through a job. */
const TOO_LARGE = 98;
const JOB_CREATED = 99;
const NO_OBJECTS = 104;
const JOB_ID = /:\s*([\w-]+_\d+)/;
const JOB_POLLS = 3;
const JOB_POLL_GAP_MS = 1500;
/** A started job is resumed by later requests instead of starting another. */
const JOB_MEMORY_MS = 30 * 60_000;

export function formFor(req: TableRequest, job = false): Record<string, string> {
  return {
    name: req.table,
    area: 'all',
    compress: 'false',
    transpose: 'false',
    startyear: '',
    endyear: '',
    timeslices: String(req.periods),
    regionalvariable: req.variable,
    regionalkey: req.key,
    format: 'ffcsv',
    language: 'de',
    quality: 'off',
    job: String(job),
  };
}

export class GenesisClient {
  private readonly http: SourceHttp;
  private readonly store: Store;
  private readonly maxBytes: number;
  constructor(http: SourceHttp, store: Store, maxBytes = 32 * 1024 * 1024) {
    this.http = http;
    this.store = store;
    this.maxBytes = maxBytes;
  }

  private post(path: string, form: Record<string, string>): Promise<UpstreamResponse> {
    return this.http.request(path, {
      method: 'POST',
      form,
      headers: {
        username: this.http.credential('GENESIS_USERNAME'),
        password: this.http.credential('GENESIS_PASSWORD'),
        accept: 'application/zip, text/csv, application/json',
      },
      // Auth failures come as 401 (Code 15) or 404 (Code 2) with a GENESIS body worth reading.
      okStatuses: [401, 404],
    });
  }

  async table(req: TableRequest): Promise<TableAnswer> {
    const res = await this.post('/data/tablefile', formFor(req));
    const file = await this.fileOrStatus(res);
    if (file.kind === 'rows') return { status: 'ok', rows: file.rows };
    const code = codeOf(file.status);
    if (code === NO_OBJECTS) return { status: 'empty', message: String(file.status.Content ?? 'no objects') };
    if (code === TOO_LARGE) return { status: 'ok', rows: await this.viaJob(req) };
    throw statusError(file.status, res.status);
  }

  private async fileOrStatus(res: UpstreamResponse): Promise<{ kind: 'rows'; rows: FfcsvRow[] } | { kind: 'status'; status: GenesisStatus }> {
    const body = res.body;
    if (isZip(body)) return { kind: 'rows', rows: parseFfcsv(await firstCsvInZip(body, this.maxBytes)) };
    const text = body.toString('utf8').replace(/^\uFEFF/, '');
    if (text.startsWith('statistics_code;')) return { kind: 'rows', rows: parseFfcsv(text) };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UpstreamError(
        'parse',
        `GENESIS answered HTTP ${res.status} with neither a file nor a status (${res.headers['content-type'] ?? 'no content type'})`,
        res.status,
      );
    }
    const status = statusOf(json);
    if (!status) throw new UpstreamError('parse', 'GENESIS JSON answer without a Status', res.status);
    if (res.status >= 400) throw statusError(status, res.status);
    return { kind: 'status', status };
  }

  /** Status 98: start (or resume) a job, look for its result a few times, then fetch the result file. */
  private async viaJob(req: TableRequest): Promise<FfcsvRow[]> {
    const memo = `genesis:job:${req.table}:${req.variable}:${req.key}:${req.periods}`;
    let jobId = await this.store.get(memo);
    if (!jobId) {
      const res = await this.post('/data/tablefile', formFor(req, true));
      const answer = await this.fileOrStatus(res);
      if (answer.kind === 'rows') return answer.rows;
      const id = JOB_ID.exec(String(answer.status.Content ?? ''))?.[1];
      if (!id || (codeOf(answer.status) !== JOB_CREATED && isErrorType(answer.status))) throw statusError(answer.status, res.status);
      jobId = id;
      await this.store.set(memo, jobId, JOB_MEMORY_MS);
    }
    for (let i = 0; i < JOB_POLLS; i++) {
      if (await this.jobReady(jobId)) {
        const res = await this.post('/data/resultfile', { name: jobId, area: 'user', compress: 'false', format: 'ffcsv', language: 'de' });
        const answer = await this.fileOrStatus(res);
        if (answer.kind !== 'rows') throw statusError(answer.status, res.status);
        await this.store.del(memo);
        return answer.rows;
      }
      if (i < JOB_POLLS - 1) await new Promise((r) => setTimeout(r, JOB_POLL_GAP_MS));
    }
    throw new UpstreamError('status', `GENESIS is still preparing ${req.table} as job ${jobId}; a later request picks it up`);
  }

  private async jobReady(jobId: string): Promise<boolean> {
    const res = await this.post('/catalogue/results', { selection: jobId, area: 'user', pagelength: '1', language: 'de' });
    let json: { Status?: GenesisStatus; List?: unknown[] | null };
    try {
      json = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new UpstreamError('parse', 'GENESIS catalogue/results answered without JSON', res.status);
    }
    const status = statusOf(json);
    if (res.status >= 400 && status) throw statusError(status, res.status);
    return Array.isArray(json.List) && json.List.length > 0;
  }
}

function statusError(s: GenesisStatus, httpStatus: number): UpstreamError {
  const code = codeOf(s);
  const what = code === 2 || code === 15 ? 'rejected the credentials' : 'answered an error';
  return new UpstreamError(
    'status',
    `GENESIS ${what}: status ${s.Code} (${s.Type ?? 'no type'}) ${String(s.Content ?? '')
      .replace(/\s+/g, ' ')
      .slice(0, 200)}`,
    httpStatus,
  );
}
