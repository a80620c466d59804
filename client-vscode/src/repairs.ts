/**
 * Ranked repairs from the server's code actions: text edits applied to a
 * string, quick pick entries, and the content of the diff preview. Pure logic
 * on protocol (LSP) structures. What a repair is (id, rank, algorithm,
 * preferred, version, summary) comes from the action's `data`, never from its
 * title.
 */

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface TextEdit {
  range: Range;
  newText: string;
}

export interface TextDocumentEdit {
  textDocument: { uri: string; version?: number | null };
  edits: TextEdit[];
}

export interface WorkspaceEdit {
  changes?: Record<string, TextEdit[]>;
  documentChanges?: unknown[];
}

export interface Command {
  title: string;
  command: string;
  arguments?: unknown[];
}

/** The parts of an LSP `CodeAction` (or bare `Command`) used here. */
export interface CodeActionLike {
  title: string;
  kind?: string;
  isPreferred?: boolean;
  edit?: WorkspaceEdit;
  command?: Command | string;
  data?: unknown;
}

/** What the server puts in a code action's `data` (see the server's `lsp/action_data.py`). */
export interface ActionData {
  /** `repair` (a ranked repair), `remove-spans` or `explain`. */
  kind: string;
  /** A repair's id: with `version`, the arguments of the server command `inputmend.applyRepair`. */
  id?: string;
  rank?: number;
  preferred?: boolean;
  /** The ranked list is final (quick repairs offered before it may be replaced). */
  final?: boolean;
  algorithm?: string;
  /** The document version the edits were computed for. */
  version?: number;
  /** What the edits do, in words: ``Insert missing `,` after `"0.1.0"` ``. */
  summary?: string;
  edits?: number;
  data_lost?: number;
}

/** The action's `data`, when the server sent it in the expected shape. */
export function actionData(action: CodeActionLike): ActionData | undefined {
  const data = action.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const candidate = data as Record<string, unknown>;
  if (typeof candidate.kind !== 'string') return undefined;
  const number = (key: string): number | undefined => (typeof candidate[key] === 'number' ? (candidate[key] as number) : undefined);
  const text = (key: string): string | undefined => (typeof candidate[key] === 'string' ? (candidate[key] as string) : undefined);
  return {
    kind: candidate.kind,
    id: text('id'),
    rank: number('rank'),
    preferred: candidate.preferred === true,
    final: candidate.final === true,
    algorithm: text('algorithm'),
    version: number('version'),
    summary: text('summary'),
    edits: number('edits'),
    data_lost: number('data_lost'),
  };
}

export interface RepairChoice<A extends CodeActionLike = CodeActionLike> {
  /** 1-based rank as offered by the server. */
  rank: number;
  /** The server's id of the repair (for `inputmend.applyRepair`), when it sent one. */
  id: string | undefined;
  label: string;
  description: string;
  detail: string;
  algorithm: string | undefined;
  preferred: boolean;
  edits: TextEdit[];
  /** The version the edits were computed for, when the server said so. */
  version: number | undefined;
  repairedText: string;
  action: A;
}

/** Start offsets of the lines of `text` (LSP line breaks: `\n`, `\r\n`, `\r`). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (char === 10 /* \n */) {
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The offset of an LSP position (UTF-16 columns, as JavaScript strings count). */
export function offsetAt(text: string, starts: readonly number[], position: Position): number {
  if (position.line < 0) return 0;
  if (position.line >= starts.length) return text.length;
  const start = starts[position.line] ?? 0;
  const next = position.line + 1 < starts.length ? (starts[position.line + 1] ?? text.length) : text.length;
  let lineEnd = next;
  // A column past the end of the line stops before the line break.
  while (lineEnd > start && (text[lineEnd - 1] === '\n' || text[lineEnd - 1] === '\r')) lineEnd--;
  return Math.min(start + Math.max(0, position.character), lineEnd);
}

/** Applies non-overlapping LSP text edits (all relative to the original text). */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = lineStarts(text);
  const resolved = edits
    .map((edit, order) => ({
      start: offsetAt(text, starts, edit.range.start),
      end: offsetAt(text, starts, edit.range.end),
      newText: edit.newText,
      order,
    }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  let result = '';
  let cursor = 0;
  for (const edit of resolved) {
    if (edit.start < cursor) {
      throw new Error('overlapping edits');
    }
    result += text.slice(cursor, edit.start) + edit.newText;
    cursor = edit.end;
  }
  return result + text.slice(cursor);
}

function isTextDocumentEdit(value: unknown): value is TextDocumentEdit {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<TextDocumentEdit>;
  return typeof candidate.textDocument?.uri === 'string' && Array.isArray(candidate.edits);
}

/** The edits a workspace edit makes to one document, and the version they expect. */
export function editsFor(edit: WorkspaceEdit | undefined, uri: string): { edits: TextEdit[]; version: number | undefined } {
  const edits: TextEdit[] = [];
  let version: number | undefined;
  for (const change of edit?.documentChanges ?? []) {
    if (isTextDocumentEdit(change) && change.textDocument.uri === uri) {
      edits.push(...change.edits);
      if (typeof change.textDocument.version === 'number') version = change.textDocument.version;
    }
  }
  edits.push(...(edit?.changes?.[uri] ?? []));
  return { edits, version };
}

/** A short summary of what the edits change: sizes and the first changed line. */
export function summarise(original: string, edits: readonly TextEdit[], repaired: string): string {
  const starts = lineStarts(original);
  let removed = 0;
  let inserted = 0;
  for (const edit of edits) {
    removed += offsetAt(original, starts, edit.range.end) - offsetAt(original, starts, edit.range.start);
    inserted += edit.newText.length;
  }
  const first = [...edits].sort((a, b) => a.range.start.line - b.range.start.line)[0];
  const parts = [`${edits.length} edit${edits.length === 1 ? '' : 's'}`, `−${removed} +${inserted} characters`];
  if (first !== undefined) {
    const repairedLines = repaired.split(/\r\n|\r|\n/);
    const line = repairedLines[first.range.start.line];
    if (line !== undefined) {
      const shown = line.trim().length > 80 ? `${line.trim().slice(0, 79)}…` : line.trim();
      parts.push(`line ${first.range.start.line + 1}: ${shown}`);
    }
  }
  return parts.join(' · ');
}

/** Code actions that are repairs of `uri` (they carry edits), in the server's order; rank, algorithm and preference from their `data`. */
export function repairChoices<A extends CodeActionLike>(text: string, uri: string, actions: readonly A[]): RepairChoice<A>[] {
  const choices: RepairChoice<A>[] = [];
  for (const action of actions) {
    if (action.edit === undefined) continue;
    if (action.kind !== undefined && !action.kind.startsWith('quickfix')) continue;
    const { edits, version } = editsFor(action.edit, uri);
    if (edits.length === 0) continue;
    let repairedText: string;
    try {
      repairedText = applyTextEdits(text, edits);
    } catch {
      continue;
    }
    const data = actionData(action);
    const rank = data?.rank ?? choices.length + 1;
    const preferred = data?.preferred === true;
    const algorithm = data?.algorithm;
    const description = [preferred ? 'best' : `#${rank}`, algorithm].filter(Boolean).join(' · ');
    choices.push({
      rank,
      id: data?.id,
      label: data?.summary ?? action.title,
      description,
      detail: summarise(text, edits, repairedText),
      algorithm,
      preferred,
      edits,
      version: data?.version ?? version,
      repairedText,
      action,
    });
  }
  return choices;
}

/** The best repair: the preferred one, else the first. */
export function bestChoice<C extends RepairChoice<CodeActionLike>>(choices: readonly C[]): C | undefined {
  return choices.find((choice) => choice.preferred) ?? choices[0];
}

/** Whether the server offers an "Explain failure (DDSET)" action (validator rejects, grammar accepts). */
export function explainOffered(actions: readonly CodeActionLike[]): boolean {
  return actions.some((action) => {
    const command = typeof action.command === 'string' ? action.command : action.command?.command;
    return command === 'inputmend.explainFailure';
  });
}

export const PREVIEW_SCHEME = 'inputmend-repair';

/**
 * The path and query of a preview document: it keeps the original file name
 * (so the diff editor picks the same language) and is unique per repair.
 */
export function previewPath(documentPath: string, rank: number, key: string): { path: string; query: string } {
  const name = documentPath.split('/').pop() ?? 'document';
  return { path: `/repair-${rank}/${name}`, query: `key=${encodeURIComponent(key)}` };
}

/** The title of the diff editor. */
export function diffTitle(fileName: string, choice: RepairChoice): string {
  const name = fileName.split(/[\\/]/).pop() ?? fileName;
  return `${name} ↔ repair ${choice.rank}: ${choice.label}`;
}

/** The buttons of the server's suggestion on save (`lsp/commands.py`). */
export const SAVE_SUGGESTION = { apply: 'Apply repair', listing: 'Show all repairs' } as const;

/** The parts of a `window/showMessageRequest` used here. */
export interface MessageRequest {
  message: string;
  actions?: { title: string }[] | null;
}

/** Whether a message request is the server's suggestion on save (its two buttons). */
export function isSaveSuggestion(request: MessageRequest): boolean {
  const titles = (request.actions ?? []).map((action) => action.title);
  return titles.length === 2 && titles[0] === SAVE_SUGGESTION.apply && titles[1] === SAVE_SUGGESTION.listing;
}

/**
 * The document a suggestion on save is about: its message starts with the
 * document's file name (`person.json is invalid. …`). `candidates` in order of
 * preference (the active document, then the ones saved last).
 */
export function suggestedDocument<D extends { fileName: string }>(message: string, candidates: readonly D[]): D | undefined {
  return candidates.find((candidate) => {
    const name = candidate.fileName.split(/[\\/]/).pop() ?? candidate.fileName;
    return message.startsWith(`${name} is invalid.`);
  });
}
