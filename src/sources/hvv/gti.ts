import { createHmac } from 'node:crypto';
import type { SourceHttp } from '../../core/adapter-http.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** GTI API version the requests are written against (fields as in the recorded answers). */
export const GTI_VERSION = 36;

/** GTI signs the exact request body: base64(HMAC-SHA1(body, password)). */
export function gtiSignature(body: string, password: string): string {
  return createHmac('sha1', password).update(body, 'utf8').digest('base64');
}

/** POSTs one signed GTI request and checks GTI's own `returnCode`. */
export async function gtiCall<T extends { returnCode?: string; errorText?: string }>(
  http: SourceHttp,
  method: 'checkName' | 'departureList',
  request: Record<string, unknown>,
): Promise<T> {
  const body = JSON.stringify({ version: GTI_VERSION, ...request });
  const res = await http.json<T>(`/${method}`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json;charset=UTF-8',
      'geofox-auth-type': 'HmacSHA1',
      'geofox-auth-user': http.credential('HVV_GEOFOX_USER'),
      'geofox-auth-signature': gtiSignature(body, http.credential('HVV_GEOFOX_PASSWORD')),
    },
  });
  if (!res || typeof res !== 'object') throw new UpstreamError('parse', `GTI ${method}: answer is not an object`);
  if (res.returnCode !== 'OK')
    throw new UpstreamError('status', `GTI ${method}: ${res.returnCode ?? 'no returnCode'}${res.errorText ? ` (${res.errorText})` : ''}`);
  return res;
}
