/** A generated document section: the text between `<!-- name:start -->` and `<!-- name:end -->` replaced by `body`. */
export function replaceSection(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`,
    end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start),
    b = text.indexOf(end);
  if (a < 0 || b < 0) throw new Error(`the document lacks the ${name} markers`);
  return text.slice(0, a + start.length) + '\n' + body + '\n' + text.slice(b);
}
