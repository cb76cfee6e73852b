import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Citations of the docs stay valid: every `docs/<file>.md#<anchor>` named in the sources, and every
// relative markdown link with an anchor, leads to an existing file and heading. Citations of
// section numbers of documents outside the repository are refused: cite a heading here instead.

const ROOT = resolve(import.meta.dirname, '..');
const SKIPPED = new Set(['node_modules', '.git', 'data', 'artifacts', 'coverage']);
const TEXT = /\.(ts|js|md)$/;
const OUTSIDE_SECTION = new RegExp(['DESIGN', 'spec'].map((word) => `\\b${word} \\u00a7`).join('|'));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return TEXT.test(entry.name) ? [path] : [];
  });
}

/** The anchors GitHub gives a markdown file's headings (code blocks skipped, repeats numbered). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = (heading[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Citation {
  from: string;
  target: string;
  anchor: string;
}

function citations(file: string): Citation[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(ROOT, file);
  const found: Citation[] = [];
  for (const [, name = '', anchor = ''] of text.matchAll(/(?<![\w./-])docs\/([\w-]+\.md)#([\w-]+)/g)) {
    found.push({ from, target: join(ROOT, 'docs', name), anchor });
  }
  if (file.endsWith('.md')) {
    for (const [, path = '', anchor = ''] of text.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(path) || (path !== '' && !path.endsWith('.md'))) continue;
      found.push({ from, target: path === '' ? file : resolve(dirname(file), path), anchor });
    }
  }
  return found;
}

const files = sourceFiles(ROOT);
const anchorsOf = new Map<string, Set<string>>();
function anchors(target: string): Set<string> | undefined {
  if (!existsSync(target)) return undefined;
  if (!anchorsOf.has(target)) anchorsOf.set(target, headingAnchors(readFileSync(target, 'utf8')));
  return anchorsOf.get(target);
}

describe('citations of the docs', () => {
  it('finds the citations it checks', () => {
    expect(files.flatMap(citations).length).toBeGreaterThan(40);
  });

  it('lead to an existing file and heading', () => {
    const broken = files
      .flatMap(citations)
      .filter((c) => !anchors(c.target)?.has(c.anchor))
      .map((c) => `${c.from}: ${relative(ROOT, c.target)}#${c.anchor}`);
    expect(broken).toEqual([]);
  });

  it('never cite a section number of a document outside the repository', () => {
    const stale = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE_SECTION.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(stale).toEqual([]);
  });

  it('computes anchors as GitHub does', () => {
    const anchors = headingAnchors('# A\n## Order of checks\n```sh\n# not a heading\n```\n### The admin CLI (`packline`)\n## A\n');
    expect([...anchors]).toEqual(['a', 'order-of-checks', 'the-admin-cli-packline', 'a-1']);
  });
});
