/**
 * Text from pages, files and engines shown on a terminal (ADR 058, ADR 071). An alt text, a file name
 * or a page's words may hold control characters: ESC starts a sequence that can move the cursor,
 * retitle the window or rewrite what was printed, and a C1 control (U+0080 to U+009F) does the same
 * on terminals that read them. Every such character is shown as a visible `\xNN` instead; the line
 * breaks and tabs that lay a report out are kept. JUnit and SARIF escape through XML and JSON.
 */

// Every C0 control but tab and line feed, DEL, and C1.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const controls = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;

const visible = (c: string) => `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** The text with control characters shown as `\xNN` (tab and line feed kept). */
export function terminalText(text: string): string {
  return text.replace(controls, visible);
}

/** One value on one line: as terminalText, with tabs and line feeds shown too. */
export function terminalLine(text: string): string {
  return terminalText(text).replace(/[\t\n]/gu, visible);
}

/**
 * JSON for stdout: JSON.stringify escapes C0 but not DEL or C1, which it may leave raw inside strings;
 * these are written as `\u00NN`, the same JSON value.
 */
export function terminalJson(json: string): string {
  return json.replace(/[\u007F-\u009F]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
