/**
 * Codemod: rewrites comments that cite the reference specification (`compat.md §2.37`,
 * `spec/engine.md §2.4 step 9`, `spec §2.12`, a bare `§2.8.1` after one of those, ...) so that
 * they cite the repository's own docs instead (`docs/rest.md#builds`), using the mapping table
 * of scripts/citation-map.ts. Only comments change: for TypeScript and JavaScript files the
 * rewrite is checked token by token against the original. Idempotent (a second run finds
 * nothing to do). Prints every citation it could not map and exits 1 when there is one.
 *
 *   npx tsx scripts/rewrite-citations.ts            rewrite comments in place
 *   npx tsx scripts/rewrite-citations.ts --strings  also replace the string literals of STRING_REWRITES
 *                                                   (descriptions, test names), checked token by token
 *   npx tsx scripts/rewrite-citations.ts --check    change nothing; exit 1 if anything would change
 *   npx tsx scripts/rewrite-citations.ts --list     print every citation found and its target
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CITATION_TOOLING, type Comment, comments, docsAnchors, scriptTokenTexts, sourceFiles } from './citations';
import { CITATIONS, NUMBERED_LIKE_SPEC, PHRASES, type SpecFile } from './citation-map';
import { onlyListedStringsChanged, rewriteStrings } from './citation-strings';

/** A section named in a citation: `§2.37`, `A4`, `Part A`, or '' for a whole file. */
interface Item {
  sections: string[];
  qualifier: string | null;
  qualifierKind: 'step' | 'case' | 'quote' | 'code' | 'word' | null;
}

/** One citation as written: a spec file (named, or implied by the context) and its sections. */
interface Group {
  file: SpecFile;
  items: Item[];
  start: number;
  end: number;
  source: string;
}

/** Why a citation could not be rewritten, for the report. */
export interface Unmapped {
  file: string;
  line: number;
  citation: string;
  reason: string;
}

// Whitespace inside a comment, including a line break followed by the comment's line prefix.
const WS = String.raw`(?:[ \t]|\n[ \t]*(?:\*(?!\/)|\/\/|#)?)+`;
const FILE_NAMES: Record<string, SpecFile> = {
  compat: 'compat',
  engine: 'engine',
  'rest-api': 'rest-api',
  spec: 'engine',
  'DESIGN.md': 'design',
  'style guide': 'guide',
};
const FILE_MENTION = new RegExp(
  String.raw`\x60?(?:spec\/)?(compat|engine|rest-api)\.md\x60?|\b(spec)(?=${WS}(?:§|Part${WS}[AB]\b))|\b(DESIGN\.md)|\b(style guide)(?=${WS}A\d)`,
  'y',
);
const SECTION = new RegExp(String.raw`§\d+(?:\.\d+)*|\bA[1-4]\b|\b(?:Sluice(?:'s)?${WS})?Part${WS}[AB]\b`, 'y');
const RANGE = new RegExp(String.raw`\s*[–-]\s*`, 'y');
const SEPARATOR = new RegExp(String.raw`(?:${WS})?[,;](?:${WS})?|${WS}and${WS}`, 'y');
const QUALIFIERS: Array<[Item['qualifierKind'], RegExp]> = [
  ['step', new RegExp(String.raw`${WS}steps?${WS}\d+(?:\s*(?:–|-|,|${WS}and${WS})\s*\d+)*`, 'y')],
  ['case', new RegExp(String.raw`${WS}#\d+(?:\s*[–-]\s*#\d+)?(?:,${WS}#\d+(?:\s*[–-]\s*#\d+)?)*`, 'y')],
  ['quote', new RegExp(String.raw`${WS}"[^"\n]+"`, 'y')],
  ['code', new RegExp(String.raw`${WS}\x60[^\x60\n]+\x60`, 'y')],
  ['word', new RegExp(String.raw`${WS}[A-Za-z][\w ]*`, 'y')],
];
// A § that belongs to a docs file or a standard, not to the reference specification.
const FOREIGN_SECTION = /(?:docs\/[\w.-]+\.md|RFC \d+|security\.md)\s*$/;

function matchAt(re: RegExp, text: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(text);
}

function normalise(text: string): string {
  return text
    .replace(new RegExp(WS, 'g'), ' ')
    .replace(/\s*[–-]\s*(?=[§#A\d])/g, '–')
    .trim();
}

/** Sections of a written range: `§2.43–§2.47` is §2.43 to §2.47, `A2–A4` is A2, A3, A4. */
function expand(from: string, to: string | null): string[] {
  if (to === null) {
    return [normalise(from).replace(/^Sluice(?:'s)? /, '')];
  }
  const a = /^(§(?:\d+\.)*)(\d+)$/.exec(from);
  const b = /^(§(?:\d+\.)*)(\d+)$/.exec(to);
  if (a && b && a[1] === b[1]) {
    return range(Number(a[2]), Number(b[2])).map((n) => `${a[1]}${n}`);
  }
  const x = /^A(\d)$/.exec(from);
  const y = /^A(\d)$/.exec(to);
  if (x && y) {
    return range(Number(x[1]), Number(y[1])).map((n) => `A${n}`);
  }
  return [`${from}–${to}`];
}

function range(from: number, to: number): number[] {
  const numbers: number[] = [];
  for (let n = from; n <= to; n++) {
    numbers.push(n);
  }
  return numbers;
}

/** Parses the sections that follow a citation's start; null when none follows. */
function parseItems(text: string, at: number, file: SpecFile): { items: Item[]; end: number } | null {
  const items: Item[] = [];
  let pos = at;
  for (;;) {
    const section = matchAt(SECTION, text, pos);
    if (!section) {
      break;
    }
    let end = section.index + section[0].length;
    let to: string | null = null;
    const dash = matchAt(RANGE, text, end);
    if (dash) {
      const second = matchAt(SECTION, text, dash.index + dash[0].length);
      if (second) {
        to = second[0];
        end = second.index + second[0].length;
      }
    }
    const sections = expand(section[0], to);
    const item: Item = { sections, qualifier: null, qualifierKind: null };
    for (const [kind, re] of QUALIFIERS) {
      const qualifier = matchAt(re, text, end);
      if (!qualifier) {
        continue;
      }
      const written = normalise(qualifier[0]);
      if (kind === 'word') {
        const known = Object.keys(CITATIONS).find(
          (key) =>
            key.startsWith(`${file} ${sections[sections.length - 1]} `) &&
            written.startsWith(key.split(' ').slice(2).join(' ')),
        );
        if (!known) {
          continue;
        }
        const words = known.split(' ').slice(2).join(' ');
        item.qualifier = words;
        item.qualifierKind = 'word';
        end = wordEnd(text, end, words);
      } else {
        item.qualifier = written;
        item.qualifierKind = kind;
        end = qualifier.index + qualifier[0].length;
      }
      break;
    }
    items.push(item);
    pos = end;
    const separator = matchAt(SEPARATOR, text, pos);
    if (!separator || !matchAt(SECTION, text, separator.index + separator[0].length)) {
      break;
    }
    pos = separator.index + separator[0].length;
  }
  return items.length === 0 ? null : { items, end: pos };
}

/** End offset of `words` written from `at` on, across line breaks of the comment. */
function wordEnd(text: string, at: number, words: string): number {
  const re = new RegExp(`${WS}${words.split(' ').map(escape).join(WS)}`, 'y');
  const match = matchAt(re, text, at);
  return match ? match.index + match[0].length : at;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The chapter of a section (`§4.2` -> `4`, `A4` -> `A`, `Part A` -> `Part`), to tell which spec file a bare one belongs to. */
function chapter(section: string): string {
  return /^§(\d+)/.exec(section)?.[1] ?? (section.startsWith('Part') ? 'Part' : 'A');
}

/** Which spec file a bare section of a comment refers to, when the comment itself names none before it. */
type Context = (section: string) => SpecFile | null;

/** The spec citations of one comment. */
function parseGroups(text: string, context: Context): Group[] {
  const groups: Group[] = [];
  let current: SpecFile | null = null;
  let pos = 0;
  while (pos < text.length) {
    const mention = matchAt(FILE_MENTION, text, pos);
    if (mention) {
      const file = FILE_NAMES[mention[1] ?? mention[2] ?? mention[3] ?? mention[4]];
      // Only the numbered references give meaning to a bare section that follows.
      current = file === 'compat' || file === 'engine' ? file : current;
      const space = matchAt(new RegExp(WS, 'y'), text, mention.index + mention[0].length);
      const parsed = space ? parseItems(text, space.index + space[0].length, file) : null;
      const quote = parsed ? null : matchAt(QUALIFIERS[2][1], text, mention.index + mention[0].length);
      const items = parsed?.items ?? [
        { sections: [''], qualifier: quote ? normalise(quote[0]) : null, qualifierKind: quote ? 'quote' : null },
      ];
      const end = parsed?.end ?? (quote ? quote.index + quote[0].length : mention.index + mention[0].length);
      groups.push({ file, items, start: mention.index, end, source: text.slice(mention.index, end) });
      pos = end;
      continue;
    }
    const bare = matchAt(SECTION, text, pos);
    const boundary = pos === 0 || /[^\w§.]/.test(text[pos - 1]);
    if (bare && boundary && !FOREIGN_SECTION.test(text.slice(Math.max(0, pos - 40), pos))) {
      const section = normalise(bare[0]);
      const file = current ?? context(section);
      if (/^A\d$/.test(section) && file !== 'compat') {
        // `A1`–`A4` are the REST reference's Part A; elsewhere they are not citations.
        pos += bare[0].length;
        continue;
      }
      if (!file) {
        groups.push({ file: 'engine', items: [], start: pos, end: pos + bare[0].length, source: bare[0] });
        pos += bare[0].length;
        continue;
      }
      const parsed = parseItems(text, pos, file);
      if (parsed) {
        groups.push({ file, items: parsed.items, start: pos, end: parsed.end, source: text.slice(pos, parsed.end) });
        pos = parsed.end;
        continue;
      }
    }
    pos++;
  }
  return groups;
}

/** The numbered spec files a comment names, with the chapters it cites of each. */
function namedFiles(text: string): Array<{ file: SpecFile; chapters: Set<string> }> {
  return parseGroups(text, () => null)
    .filter((group) => group.items.length > 0 && (group.file === 'compat' || group.file === 'engine'))
    .map((group) => ({
      file: group.file,
      chapters: new Set(group.items.flatMap((item) => item.sections.map(chapter))),
    }));
}

/**
 * The context of comment `index`: a bare section belongs to the nearest comment (before it, else
 * after it) that names a spec file citing the same chapter; failing that, the nearest that names one.
 */
function contextOf(named: ReturnType<typeof namedFiles>[], index: number): Context {
  const order = [...named.slice(0, index).reverse(), ...named.slice(index + 1)].map((mentions) =>
    [...mentions].reverse(),
  );
  return (section) => {
    const wanted = chapter(section);
    for (const mentions of order) {
      const match = mentions.find((mention) => mention.chapters.has(wanted));
      if (match) {
        return match.file;
      }
    }
    return order.find((mentions) => mentions.length > 0)?.[0].file ?? null;
  };
}

/** Renders one citation group as docs citations, or says why it cannot. */
function render(group: Group): { text: string } | { reason: string } {
  if (group.items.length === 0) {
    return { reason: 'a bare § with no spec file named anywhere in this file' };
  }
  const parts: Array<{ target: string; qualifiers: string[] }> = [];
  for (const item of group.items) {
    for (const [index, section] of item.sections.entries()) {
      const last = index === item.sections.length - 1;
      const base = `${group.file} ${section}`.trim();
      const qualified = last && item.qualifier ? CITATIONS[`${base} ${item.qualifier}`] : undefined;
      const target = qualified ?? CITATIONS[base];
      if (!target) {
        return { reason: `no mapping for "${base}${last && item.qualifier ? ` ${item.qualifier}` : ''}"` };
      }
      let kept: string | null = null;
      if (last && item.qualifier && !qualified) {
        if ((item.qualifierKind === 'step' || item.qualifierKind === 'case') && !NUMBERED_LIKE_SPEC.has(target)) {
          return { reason: `"${base} ${item.qualifier}": docs/${target} is not numbered like the spec` };
        }
        kept = item.qualifier;
      }
      const previous = parts[parts.length - 1];
      if (previous && previous.target === target) {
        if (kept) {
          previous.qualifiers.push(kept);
        }
      } else if (kept || !parts.some((part) => part.target === target && part.qualifiers.length === 0)) {
        parts.push({ target, qualifiers: kept ? [kept] : [] });
      }
    }
  }
  return {
    text: parts
      .map((part) => `docs/${part.target}${part.qualifiers.length ? ` ${part.qualifiers.join(', ')}` : ''}`)
      .join(', '),
  };
}

/** The comment marker and blanks that start a line of a comment (`/** `, ` * `, `// `, `# `). */
function prefixOf(line: string): string {
  return /^\s*(?:\/\*\*?|\*(?!\/)|\/\/|#)?\s*/.exec(line)?.[0] ?? '';
}

/** The prefix a wrapped line continues with: a JSDoc line's, indented under a list item's marker. */
function continuationOf(line: string): string {
  const prefix = prefixOf(line);
  const base = prefix.replace('/**', ' *').replace('/*', ' *');
  const marker = /^(?:[-*] |\d+\. )/.exec(line.slice(prefix.length))?.[0];
  return marker ? base + ' '.repeat(marker.length) : base;
}

/** Whether `line` goes on with the paragraph of the line above it (same prefix, not a new item). */
function continuesParagraph(line: string, continuation: string): boolean {
  const body = line.slice(continuation.length);
  return prefixOf(line) === continuation && body !== '' && !/^(?:[-*] |\d+\. |@|\*\/)/.test(body);
}

/**
 * Keeps the lines of a rewritten comment within the formatter's width: words past it move to
 * the start of the next line of the same paragraph (or to a new line), so the paragraph stays
 * whole. A one-line JSDoc that no longer fits becomes a block.
 */
function wrap(comment: string, width: number): string {
  const single = /^(\s*)\/\*\*\s(.*)\s\*\/$/.exec(comment);
  if (single && !comment.includes('\n') && comment.length > width) {
    const indent = single[1];
    return `${indent}/**\n${wrap(`${indent} * ${single[2]}`, width)}\n${indent} */`;
  }
  const lines = comment.split('\n');
  for (let i = 0; i < lines.length; i++) {
    while (lines[i].length > width) {
      const prefix = prefixOf(lines[i]);
      const cut = lines[i].lastIndexOf(' ', width);
      if (cut <= prefix.length) {
        break;
      }
      const overflow = lines[i].slice(cut + 1);
      const continuation = continuationOf(lines[i]);
      lines[i] = lines[i].slice(0, cut).trimEnd();
      const next = lines[i + 1];
      if (next !== undefined && continuesParagraph(next, continuation)) {
        lines[i + 1] = `${continuation}${overflow} ${next.slice(continuation.length)}`;
      } else {
        lines.splice(i + 1, 0, continuation + overflow);
      }
    }
  }
  return lines.join('\n');
}

/** Drops a docs citation that repeats the one right before it (`docs/a.md#x, docs/a.md#x`). */
function withoutRepeats(comment: string): string {
  return comment.replace(/(docs\/[\w.-]+\.md#[\w-]+)[;,]\s*\1(?![\w-])/g, '$1');
}

/** Rewrites the comments of one file; returns the new text and what could not be mapped. */
export function rewriteFile(fileName: string, text: string): { text: string; unmapped: Unmapped[]; found: string[] } {
  const all: Comment[] = comments(fileName, text);
  const named = all.map((comment) => namedFiles(comment.text));
  const unmapped: Unmapped[] = [];
  const found: string[] = [];
  let output = '';
  let copied = 0;
  all.forEach((comment, index) => {
    let rewritten = comment.text;
    for (const [pattern, replacement] of PHRASES) {
      rewritten =
        typeof replacement === 'string'
          ? rewritten.replace(pattern, replacement)
          : rewritten.replace(pattern, replacement);
    }
    const groups = parseGroups(rewritten, contextOf(named, index));
    for (const group of [...groups].reverse()) {
      const line =
        text.slice(0, comment.pos).split('\n').length + rewritten.slice(0, group.start).split('\n').length - 1;
      const result = render(group);
      if ('reason' in result) {
        unmapped.push({ file: fileName, line, citation: normalise(group.source), reason: result.reason });
        continue;
      }
      found.push(`${fileName}:${line}: ${normalise(group.source)} -> ${result.text}`);
      rewritten = rewritten.slice(0, group.start) + result.text + rewritten.slice(group.end);
    }
    if (rewritten !== comment.text) {
      rewritten = withoutRepeats(rewritten);
      const lead = ' '.repeat(column(text, comment.pos));
      const width = Math.max(120, ...(lead + comment.text).split('\n').map((l) => l.length));
      output += text.slice(copied, comment.pos) + wrap(lead + rewritten, width).slice(lead.length);
      copied = comment.end;
    }
  });
  output += text.slice(copied);
  return { text: output, unmapped, found: found.reverse() };
}

function column(text: string, pos: number): number {
  return pos - (text.lastIndexOf('\n', pos - 1) + 1);
}

function main(): void {
  const root = join(__dirname, '..');
  const args = new Set(process.argv.slice(2));
  const anchors = docsAnchors(root);
  const broken = [...new Set(Object.values(CITATIONS))].filter((target) => {
    const [doc, anchor] = target.split('#');
    return !anchors.get(doc)?.has(anchor);
  });
  if (broken.length > 0) {
    console.error(`mapping targets missing from docs/: ${broken.join(', ')}`);
    process.exit(1);
  }
  const unmapped: Unmapped[] = [];
  const changed: string[] = [];
  const stringsChanged: string[] = [];
  for (const file of sourceFiles(root).filter((name) => !CITATION_TOOLING.includes(name))) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const strings = args.has('--strings') ? rewriteStrings(file, text) : text;
    if (strings !== text && !onlyListedStringsChanged(file, text, strings)) {
      console.error(`${file}: the string rewrite would change more than the listed strings; left alone`);
      process.exit(1);
    }
    const result = rewriteFile(file, strings);
    unmapped.push(...result.unmapped);
    if (args.has('--list')) {
      result.found.forEach((line) => console.log(line));
    }
    if (result.text === text) {
      continue;
    }
    if (strings !== text) {
      stringsChanged.push(file);
    }
    if (
      /\.(ts|tsx|js|mjs|cjs)$/.test(file) &&
      scriptTokenTexts(file, strings).join('\n') !== scriptTokenTexts(file, result.text).join('\n')
    ) {
      console.error(`${file}: the rewrite would change more than comments; left alone`);
      process.exit(1);
    }
    changed.push(file);
    if (!args.has('--check') && !args.has('--list')) {
      writeFileSync(path, result.text);
    }
  }
  for (const entry of unmapped) {
    console.error(`${entry.file}:${entry.line}: ${entry.citation}: ${entry.reason}`);
  }
  console.log(
    `${changed.length} file(s) ${args.has('--check') || args.has('--list') ? 'would change' : 'rewritten'}; ${unmapped.length} citation(s) not mapped`,
  );
  if (stringsChanged.some((file) => /^(schema|rest-compat)\//.test(file))) {
    console.log('descriptions changed: run npm run schema:print, npm run codegen and npx tsx scripts/write-openapi.ts');
  }
  if (stringsChanged.length > 0) {
    console.log(`string literals replaced in ${stringsChanged.length} file(s): run npm run format`);
  }
  if (unmapped.length > 0 || (args.has('--check') && changed.length > 0)) {
    process.exit(1);
  }
}

if (require.main === module) {
  main();
}
