/** The API version, written once (a test checks it equals package.json's). */
export const VERSION = '1.0.0';
