/**
 * The `--strings` part of scripts/rewrite-citations.ts: string literals that cited the
 * specification (GraphQL and OpenAPI descriptions, test names) are replaced by the exact texts of
 * STRING_REWRITES, found by content wherever they now live, and nothing else changes.
 */
import * as ts from 'typescript';
import { STRING_REWRITES } from './citation-map';
import { tokens } from './citations';

const SCRIPT = /\.(ts|tsx|js|mjs|cjs)$/;

type StringToken = ts.StringLiteral | ts.NoSubstitutionTemplateLiteral;

function isStringToken(node: ts.Node): node is StringToken {
  return node.kind === ts.SyntaxKind.StringLiteral || node.kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral;
}

function parse(fileName: string, text: string): { source: ts.SourceFile; leaves: ts.Node[] } {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  return { source, leaves: tokens(source) };
}

/** Replaces the string literals listed in STRING_REWRITES, keeping each one's quote character. */
export function rewriteStrings(fileName: string, text: string): string {
  if (!SCRIPT.test(fileName)) {
    return text;
  }
  let output = text;
  for (const token of parse(fileName, text).leaves.filter(isStringToken).reverse()) {
    const replacement = STRING_REWRITES[token.text];
    if (replacement === undefined) {
      continue;
    }
    const quote = text[token.getStart()];
    const escaped = replacement.replace(/\\/g, '\\\\').split(quote).join(`\\${quote}`);
    output = output.slice(0, token.getStart()) + quote + escaped + quote + output.slice(token.getEnd());
  }
  return output;
}

/** The tokens of a script, string literals by value (through `rewrites` when given). */
function normalised(fileName: string, text: string, rewrites?: Record<string, string>): string[] {
  const { source, leaves } = parse(fileName, text);
  return leaves.map((leaf) =>
    isStringToken(leaf) ? `${leaf.kind}:${rewrites?.[leaf.text] ?? leaf.text}` : `${leaf.kind}:${leaf.getText(source)}`,
  );
}

/** Whether `after` differs from `before` only in listed string literals, each now its listed text. */
export function onlyListedStringsChanged(fileName: string, before: string, after: string): boolean {
  return normalised(fileName, before, STRING_REWRITES).join('\n') === normalised(fileName, after).join('\n');
}
