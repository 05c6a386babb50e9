/**
 * Comments and the citations in them, shared by the citation codemod
 * (scripts/rewrite-citations.ts) and the check that keeps citations true
 * (test/unit/docs-citations.test.ts). docs/development.md#citations describes the scheme:
 * comments cite `docs/<file>.md#<anchor>`, the anchor being a heading of that file.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Lexer, Source, TokenKind } from 'graphql';
import * as ts from 'typescript';

/** A comment of a source file: its text and where it is (offsets into the file's text). */
export interface Comment {
  pos: number;
  end: number;
  text: string;
}

/** Folders whose files carry code comments; `examples/` holds YAML and shell comments too. */
export const SOURCE_ROOTS = [
  'src',
  'schema',
  'rest-compat',
  'subscriptions',
  'test',
  'bench',
  'scripts',
  'examples',
  'web',
];
const SOURCE_EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|graphql|ya?ml|sh)$/;

/** Source files under `SOURCE_ROOTS` (and top-level config files), relative to `root`, sorted. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      // Generated files follow their sources (schema descriptions, operations): fix those instead.
      if (['node_modules', 'dist', 'data', 'generated'].includes(entry)) {
        continue;
      }
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (SOURCE_EXTENSIONS.test(entry)) {
        files.push(relative(root, path));
      }
    }
  };
  for (const folder of SOURCE_ROOTS) {
    if (existsSync(join(root, folder))) {
      walk(join(root, folder));
    }
  }
  for (const entry of readdirSync(root)) {
    if (/\.(ts|js|mjs|cjs)$/.test(entry) && statSync(join(root, entry)).isFile()) {
      files.push(entry);
    }
  }
  return files.sort();
}

/** The comments of a file, by its extension: TypeScript/JavaScript, GraphQL, YAML or shell. */
export function comments(fileName: string, text: string): Comment[] {
  if (/\.(ts|tsx|js|mjs|cjs)$/.test(fileName)) {
    return scriptComments(fileName, text);
  }
  if (fileName.endsWith('.graphql')) {
    return graphqlComments(text);
  }
  return hashComments(text);
}

function scriptComments(fileName: string, text: string): Comment[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind(fileName));
  const found = new Map<number, Comment>();
  const add = (ranges: ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      found.set(range.pos, { pos: range.pos, end: range.end, text: text.slice(range.pos, range.end) });
    }
  };
  for (const token of tokens(source)) {
    add(ts.getLeadingCommentRanges(text, token.getFullStart()));
    add(ts.getTrailingCommentRanges(text, token.getEnd()));
  }
  return [...found.values()].sort((a, b) => a.pos - b.pos);
}

function scriptKind(fileName: string): ts.ScriptKind {
  if (fileName.endsWith('.tsx')) {
    return ts.ScriptKind.TSX;
  }
  if (/\.(js|mjs|cjs)$/.test(fileName)) {
    return ts.ScriptKind.JS;
  }
  return ts.ScriptKind.TS;
}

/** Every token of a parsed file (the leaves of the syntax tree), end-of-file token included. */
export function tokens(source: ts.SourceFile): ts.Node[] {
  const leaves: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) {
      return; // JSDoc comments hang in the tree as nodes; they are comments, not tokens
    }
    const children = node.getChildren(source);
    if (children.length === 0) {
      leaves.push(node);
    } else {
      children.forEach(visit);
    }
  };
  visit(source);
  return leaves;
}

/** The texts of a script's tokens (comments and whitespace left out), to prove a rewrite touched only comments. */
export function scriptTokenTexts(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind(fileName));
  return tokens(source).map((token) => `${token.kind}:${token.getText(source)}`);
}

function graphqlComments(text: string): Comment[] {
  const lexer = new Lexer(new Source(text));
  const first = lexer.token;
  let last = first;
  do {
    last = lexer.advance();
  } while (last.kind !== TokenKind.EOF);
  const found: Comment[] = [];
  for (let token = first.next; token; token = token.next) {
    if (token.kind === TokenKind.COMMENT) {
      found.push({ pos: token.start, end: token.end, text: text.slice(token.start, token.end) });
    }
  }
  return found;
}

/** `#` comments of YAML and shell files: a `#` at the start of a line or after a blank, outside quotes. */
function hashComments(text: string): Comment[] {
  const found: Comment[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    let quote: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === quote) {
          quote = null;
        }
      } else if (c === '"' || c === "'") {
        if (i === 0 || /[\s:[{,-]/.test(line[i - 1])) {
          quote = c;
        }
      } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
        found.push({ pos: offset + i, end: offset + line.length, text: line.slice(i) });
        break;
      }
    }
    offset += line.length + 1;
  }
  return found;
}

/** The citation tools themselves: they name the specification's files on purpose. */
export const CITATION_TOOLING = [
  'scripts/citations.ts',
  'scripts/citation-map.ts',
  'scripts/rewrite-citations.ts',
  'test/unit/docs-citations.test.ts',
];

/** Names of the reference specification's files, which live outside the repository. */
export const SPEC_REFERENCE =
  /\b(compat|engine|rest-api|DESIGN)\.md\b|\.\.\/shared\b|\/work\/shared\b|\bspec\s+(§|Part\b)|\bstyle guide\s+A\d/g;

/** A bare section number (`§2.4`), which only the specification's files give meaning to; RFC sections aside. */
export const BARE_SECTION = /(?<!RFC \d+ )§\s*\d+(?:\.\d+)*/g;

/** Line number (1-based) of an offset into a text. */
export function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** A `docs/<file>.md` citation, with its `#anchor` when it has one. */
export interface DocsCitation {
  file: string;
  anchor: string | null;
  index: number;
  text: string;
}

const DOCS_CITATION = /\bdocs\/([A-Za-z0-9_.-]+\.md)(#[a-z0-9_-]+)?/g;

export function docsCitations(text: string): DocsCitation[] {
  return [...text.matchAll(DOCS_CITATION)].map((match) => ({
    file: match[1],
    anchor: match[2] ? match[2].slice(1) : null,
    index: match.index ?? 0,
    text: match[0],
  }));
}

/**
 * The anchors of a Markdown file's headings, as GitHub makes them: lower case, punctuation
 * dropped, spaces turned into dashes, repeated anchors numbered `-1`, `-2`, ...
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
    }
    if (fenced) {
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) {
      continue;
    }
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of every `docs/*.md` file, by file name. */
export function docsAnchors(root: string): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  const dir = join(root, 'docs');
  for (const entry of readdirSync(dir)) {
    if (entry.endsWith('.md')) {
      result.set(entry, headingAnchors(readFileSync(join(dir, entry), 'utf8')));
    }
  }
  return result;
}
