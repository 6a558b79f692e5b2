import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const DOCS = ['README.md', 'CHANGELOG.md', 'docs/contract.md', 'docs/configuration.md', 'docs/data-types.md', 'docs/architecture.md', 'docs/operations.md'];

test('README and docs link only to files inside the repository, and those exist', () => {
  for (const doc of DOCS) {
    const text = readFileSync(new URL(doc, root), 'utf8');
    assert.doesNotMatch(text, /\.\.\/shared|\(\.\.\//, `${doc} points outside the repository`);
    const base = new URL(doc, root);
    for (const m of text.matchAll(/\]\(([^)#\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      assert.ok(existsSync(new URL(target, base)), `${doc} links to missing ${target}`);
    }
  }
});

test('README starts with the two set-up commands, then the demo, curl examples and the credentials table', () => {
  const text = readFileSync(new URL('README.md', root), 'utf8');
  const at = (s: string) => {
    const i = text.indexOf(s);
    assert.ok(i >= 0, s);
    return i;
  };
  const order = [at('npm ci && npm start'), at('npm test'), at('npm run demo'), at('$ curl'), at('<!-- credentials:start -->'), at('## Architecture')];
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
  );
  assert.ok(existsSync(new URL('LICENSE', root)));
  assert.match(readFileSync(new URL('LICENSE', root), 'utf8'), /^MIT License/);
  assert.match(readFileSync(new URL('CHANGELOG.md', root), 'utf8'), /2026-07-25[\s\S]*`plz`, `zip` \| `post_code`/);
});

test('docs/architecture.md names only files and folders that exist, and README and the layer rules point to it', () => {
  const text = readFileSync(new URL('docs/architecture.md', root), 'utf8');
  for (const m of text.matchAll(/`(src\/[\w./-]+?)`/g)) {
    const path = m[1]!.replace(/<[^>]+>.*$/, '');
    assert.ok(existsSync(new URL(path, root)), `docs/architecture.md names missing ${path}`);
  }
  assert.match(readFileSync(new URL('README.md', root), 'utf8'), /\(docs\/architecture\.md\)/);
  assert.match(readFileSync(new URL('.dependency-cruiser.cjs', root), 'utf8'), /docs\/architecture\.md/);
  assert.doesNotMatch(readFileSync(new URL('src/pipeline/run.ts', root), 'utf8'), /DESIGN\.md/);
});
