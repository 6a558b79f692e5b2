/** The date the deprecated paths and field names were announced (spec: 2026-07-25). */
export const DEPRECATED_SINCE = Date.UTC(2026, 6, 25) / 1000;

/** RFC 9745 `Deprecation` and RFC 8288 `Link` to the concrete successor path. */
export function deprecationHeaders(successorPath: string): Record<string, string> {
  return {
    deprecation: `@${DEPRECATED_SINCE}`,
    link: `<${successorPath}>; rel="successor-version"`,
  };
}
