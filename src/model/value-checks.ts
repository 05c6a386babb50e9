/** Checks on untyped values (parsed YAML and JSON, bus payloads, names from outside) that every layer uses. */

/** A non-null object that is not an array: a JSON object or a YAML mapping before further checks. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `text` contains a control character (C0 range or DEL). */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) {
      return true;
    }
  }
  return false;
}
