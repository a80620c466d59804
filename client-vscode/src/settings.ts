/**
 * The `inputmend` settings as the server sees them, filtered by workspace trust.
 *
 * Pure logic (no `vscode` import): the glue reads `inspect()` results for each
 * key and hands them here, so the trust rules are unit tested.
 *
 * Rules:
 * - only the keys the server understands are sent;
 * - `trustWorkspaceCommands` is taken from user settings only, and is false in
 *   an untrusted workspace;
 * - in an untrusted workspace, oracles that come from workspace (or folder)
 *   settings lose `command` and `python`; an entry left without a grammar is
 *   dropped;
 * - `server.pythonPath` from workspace settings is ignored when untrusted.
 */

/** What `WorkspaceConfiguration.inspect()` returns (the parts used here). */
export interface Inspected<T = unknown> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export type Level = 'default' | 'user' | 'workspace' | 'workspaceFolder';

export interface Effective<T = unknown> {
  value: T | undefined;
  level: Level;
}

/** Keys of the `inputmend` section that the server reads (besides `oracles`). */
export const SERVER_KEYS = [
  'timeout',
  'maxTests',
  'maxLoss',
  'testTimeout',
  'repairAlgorithm',
  'diagnose',
  'repairs',
  'top',
  'onSave',
  'trustWorkspaceCommands',
  'debounceMs',
  'maxBackgroundChars',
] as const;

export type ServerKey = (typeof SERVER_KEYS)[number] | 'oracles';

export interface OracleSetting {
  files: string | string[];
  grammar?: string;
  command?: string | string[];
  python?: string;
  incompleteExit?: number;
  incompletePattern?: string;
  testTimeout?: number;
}

export interface ServerSettings {
  oracles: OracleSetting[];
  timeout?: number;
  maxTests?: number | null;
  maxLoss?: string;
  testTimeout?: number;
  repairAlgorithm?: string;
  diagnose?: boolean;
  repairs?: boolean;
  top?: number;
  onSave?: string;
  trustWorkspaceCommands: boolean;
  debounceMs?: number;
  maxBackgroundChars?: number;
}

/** Reads `inspect()` for a key of the `inputmend` section (`undefined` if unknown). */
export type Inspector = (key: string) => Inspected | undefined;

/** The value VS Code would use, and the level it comes from. */
export function effective<T>(inspected: Inspected<T> | undefined): Effective<T> {
  if (inspected === undefined) {
    return { value: undefined, level: 'default' };
  }
  if (inspected.workspaceFolderValue !== undefined) {
    return { value: inspected.workspaceFolderValue, level: 'workspaceFolder' };
  }
  if (inspected.workspaceValue !== undefined) {
    return { value: inspected.workspaceValue, level: 'workspace' };
  }
  if (inspected.globalValue !== undefined) {
    return { value: inspected.globalValue, level: 'user' };
  }
  return { value: inspected.defaultValue, level: 'default' };
}

export function fromWorkspace(level: Level): boolean {
  return level === 'workspace' || level === 'workspaceFolder';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** One oracle entry, normalised; `undefined` when it is unusable. */
export function normaliseOracle(value: unknown): OracleSetting | undefined {
  if (!isRecord(value)) {
    return undefined;
  }
  const files = value.files;
  if (!(typeof files === 'string' && files.length > 0) && !(isStringList(files) && files.length > 0)) {
    return undefined;
  }
  const oracle: OracleSetting = { files };
  if (typeof value.grammar === 'string' && value.grammar) oracle.grammar = value.grammar;
  if (typeof value.command === 'string' && value.command) oracle.command = value.command;
  if (isStringList(value.command) && value.command.length > 0) oracle.command = value.command;
  if (typeof value.python === 'string' && value.python) oracle.python = value.python;
  if (typeof value.incompleteExit === 'number') oracle.incompleteExit = value.incompleteExit;
  if (typeof value.incompletePattern === 'string') oracle.incompletePattern = value.incompletePattern;
  if (typeof value.testTimeout === 'number') oracle.testTimeout = value.testTimeout;
  if (oracle.grammar === undefined && oracle.command === undefined && oracle.python === undefined) {
    return undefined;
  }
  return oracle;
}

/** Oracles as sent to the server: external validators from an untrusted workspace removed. */
export function filterOracles(raw: Effective, trusted: boolean): OracleSetting[] {
  if (!Array.isArray(raw.value)) {
    return [];
  }
  const strip = !trusted && fromWorkspace(raw.level);
  const result: OracleSetting[] = [];
  for (const item of raw.value) {
    const oracle = normaliseOracle(item);
    if (oracle === undefined) continue;
    if (strip) {
      delete oracle.command;
      delete oracle.python;
      delete oracle.incompleteExit;
      delete oracle.incompletePattern;
      if (oracle.grammar === undefined) continue;
    }
    result.push(oracle);
  }
  return result;
}

/** The `inputmend` section for the server, honouring workspace trust. */
export function serverSettings(inspect: Inspector, trusted: boolean): ServerSettings {
  const settings: ServerSettings = {
    oracles: filterOracles(effective(inspect('oracles')), trusted),
    trustWorkspaceCommands: false,
  };
  const target = settings as unknown as Record<string, unknown>;
  for (const key of SERVER_KEYS) {
    if (key === 'trustWorkspaceCommands') continue;
    const { value } = effective(inspect(key));
    if (value !== undefined) target[key] = value;
  }
  // User level only: a workspace can never grant itself the right to run commands.
  const trust = inspect('trustWorkspaceCommands');
  const userValue = trust?.globalValue ?? trust?.defaultValue;
  settings.trustWorkspaceCommands = trusted && userValue === true;
  return settings;
}

/** `inputmend.server.pythonPath`, ignoring workspace values when untrusted. */
export function configuredPythonPath(inspected: Inspected | undefined, trusted: boolean): string {
  let chosen = effective(inspected);
  if (!trusted && fromWorkspace(chosen.level)) {
    chosen = { value: inspected?.globalValue ?? inspected?.defaultValue, level: 'user' };
  }
  return typeof chosen.value === 'string' ? chosen.value.trim() : '';
}

/** All file globs configured in the oracles (for the document selector). */
export function oracleGlobs(oracles: readonly OracleSetting[]): string[] {
  const globs: string[] = [];
  for (const oracle of oracles) {
    const files = typeof oracle.files === 'string' ? [oracle.files] : oracle.files;
    for (const glob of files) {
      if (glob.trim() && !globs.includes(glob.trim())) globs.push(glob.trim());
    }
  }
  return globs;
}

/**
 * What the running client depends on; a change in any of these needs a restart
 * (the interpreter, and the document selector which is fixed per client).
 */
export interface RestartKey {
  python: string;
  globs: string[];
  folders: string[];
}

export function needsRestart(before: RestartKey | undefined, after: RestartKey): boolean {
  return before === undefined || JSON.stringify(before) !== JSON.stringify(after);
}
