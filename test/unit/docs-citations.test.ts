/**
 * Citations stay true (docs/development.md#citations): comments cite `docs/<file>.md#<anchor>`
 * where the file and the heading exist, and nothing in the repository cites the reference
 * specification's files (which are not part of it) or a bare section number of theirs. Docs links
 * to docs anchors resolve too. A failure names the file and line; `npx tsx
 * scripts/rewrite-citations.ts` rewrites old-style citations, and a renamed heading means fixing
 * the citations of its old anchor.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BARE_SECTION,
  CITATION_TOOLING,
  comments,
  docsAnchors,
  docsCitations,
  headingAnchors,
  lineOf,
  SPEC_REFERENCE,
  sourceFiles,
} from '../../scripts/citations';

const ROOT = path.join(__dirname, '..', '..');
const ANCHORS = docsAnchors(ROOT);

/** What is wrong with the docs citations of one comment (offsets relative to the comment). */
function citationProblems(comment: string): Array<{ at: number; problem: string }> {
  const problems: Array<{ at: number; problem: string }> = [];
  for (const citation of docsCitations(comment)) {
    const anchors = ANCHORS.get(citation.file);
    if (!anchors) {
      problems.push({ at: citation.index, problem: `cites docs/${citation.file}, which does not exist` });
    } else if (citation.anchor !== null && !anchors.has(citation.anchor)) {
      problems.push({
        at: citation.index,
        problem: `cites ${citation.text}: docs/${citation.file} has no such heading`,
      });
    } else if (/^\s*§/.test(comment.slice(citation.index + citation.text.length))) {
      problems.push({
        at: citation.index,
        problem: `cites ${citation.text} by section number; cite a #heading anchor`,
      });
    }
  }
  return problems;
}

/** Specification references and bare section numbers anywhere in a text. */
function specProblems(text: string): Array<{ at: number; problem: string }> {
  return [
    ...[...text.matchAll(SPEC_REFERENCE)].map((m) => ({
      at: m.index ?? 0,
      problem: `names "${m[0]}", which is not in the repository; cite docs/ instead`,
    })),
    ...[...text.matchAll(BARE_SECTION)].map((m) => ({
      at: m.index ?? 0,
      problem: `bare section number "${m[0]}"; cite a docs/ heading`,
    })),
  ];
}

/** Targets of Markdown links (`[text](target)`) with their offsets. */
function markdownLinks(markdown: string): Array<{ at: number; target: string }> {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({ at: m.index ?? 0, target: m[1] }));
}

function report(problems: string[]): string {
  return problems.length === 0 ? '' : `${problems.length} problem(s):\n${problems.join('\n')}`;
}

const sources = sourceFiles(ROOT).filter((file) => !CITATION_TOOLING.includes(file));
const markdownFiles = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const generated = [
  'schema/schema.graphql',
  'docs/openapi-current.json',
  'docs/openapi-earlier.json',
  ...readdirSync(path.join(ROOT, 'rest-compat', 'generated')).map((name) => `rest-compat/generated/${name}`),
];

describe('docs citations', () => {
  it('finds comments and citations to check (the check cannot pass by finding nothing)', () => {
    expect(sources.length).toBeGreaterThan(300);
    const cited = sources.flatMap((file) =>
      comments(file, readFileSync(path.join(ROOT, file), 'utf8')).flatMap((c) => docsCitations(c.text)),
    );
    expect(cited.length).toBeGreaterThan(100);
    expect(ANCHORS.get('rest.md')?.has('reference-behaviour')).toBe(true);
  });

  it('reports a bad citation, a spec reference and a bare section in a sample comment', () => {
    const sample = '/** See docs/rest.md#no-such-heading, docs/nope.md, compat.md §2.37 and §4.2 (RFC 7515 §2). */';
    const problems = [...citationProblems(sample), ...specProblems(sample)].map((p) => p.problem);
    expect(problems).toEqual([
      'cites docs/rest.md#no-such-heading: docs/rest.md has no such heading',
      'cites docs/nope.md, which does not exist',
      'names "compat.md", which is not in the repository; cite docs/ instead',
      'bare section number "§2.37"; cite a docs/ heading',
      'bare section number "§4.2"; cite a docs/ heading',
    ]);
    expect(citationProblems('// docs/security.md §4')[0]?.problem).toMatch(/by section number/);
    expect(citationProblems('// docs/gating.md#enqueue step 9, docs/rest.md#current-shape-cases #36')).toEqual([]);
  });

  it('source comments cite docs files and headings that exist', () => {
    const problems: string[] = [];
    for (const file of sources) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const comment of comments(file, text)) {
        for (const { at, problem } of citationProblems(comment.text)) {
          problems.push(`${file}:${lineOf(text, comment.pos + at)}: ${problem}`);
        }
      }
    }
    expect(report(problems)).toBe('');
  });

  it('no source, doc or generated file cites the specification or its section numbers', () => {
    const problems: string[] = [];
    for (const file of [...sources, ...markdownFiles, ...generated]) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const { at, problem } of specProblems(text)) {
        problems.push(`${file}:${lineOf(text, at)}: ${problem}`);
      }
    }
    expect(report(problems)).toBe('');
  });

  it('docs links and docs/ citations in the docs resolve to existing files and headings', () => {
    const problems: string[] = [];
    for (const file of markdownFiles) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const { at, problem } of citationProblems(text)) {
        problems.push(`${file}:${lineOf(text, at)}: ${problem}`);
      }
      for (const { at, target } of markdownLinks(text)) {
        if (/^[a-z]+:/.test(target)) {
          continue;
        }
        const [pathPart, anchor] = target.split('#');
        const linked = pathPart === '' ? path.join(ROOT, file) : path.join(ROOT, path.dirname(file), pathPart);
        if (!existsSync(linked)) {
          problems.push(`${file}:${lineOf(text, at)}: links to ${target}, which does not exist`);
        } else if (
          anchor !== undefined &&
          linked.endsWith('.md') &&
          !headingAnchors(readFileSync(linked, 'utf8')).has(anchor)
        ) {
          problems.push(`${file}:${lineOf(text, at)}: links to ${target}, which has no such heading`);
        }
      }
    }
    expect(report(problems)).toBe('');
  });
});
