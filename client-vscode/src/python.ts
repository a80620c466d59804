/**
 * Which Python runs the server, how it is started, and what to tell the user
 * when it cannot. Pure logic: the Python extension's API and process probes
 * are injected.
 */
import * as path from 'path';

/** The parts of the `ms-python.python` extension API used here (both its current and legacy shape). */
export interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: unknown): { id: string; path: string } | undefined;
    resolveEnvironment(
      environment: { id: string; path: string } | string,
    ): Promise<{ executable: { uri?: { fsPath: string } | undefined } } | undefined>;
    onDidChangeActiveEnvironmentPath?(listener: () => void): { dispose(): void };
  };
  settings?: {
    getExecutionDetails(resource?: unknown): { execCommand: string[] | undefined } | undefined;
  };
}

export type PythonSource = 'setting' | 'python-extension' | 'path';

export interface PythonChoice {
  command: string;
  source: PythonSource;
}

export interface ExpandContext {
  workspaceFolder: string | undefined;
  home: string;
}

/** The names tried on `PATH` when no interpreter is configured or selected: the usual one, then the newest versions. */
export function pathPythons(platform: string): string[] {
  return platform === 'win32'
    ? ['python', 'python3']
    : ['python3', 'python3.14', 'python3.13', 'python3.12', 'python3.11', 'python'];
}

/**
 * `${workspaceFolder}`, `${userHome}` and a leading `~` in a configured path;
 * a relative path with a folder in it (`.venv/bin/python`) is taken from the
 * workspace folder, since the server does not run there. A bare name stays a
 * name for the `PATH` search.
 */
export function expandPath(value: string, context: ExpandContext): string {
  let result = value.trim();
  if (result === '~' || result.startsWith('~/') || result.startsWith('~\\')) {
    result = context.home + result.slice(1);
  }
  result = result.replace(/\$\{userHome\}/g, context.home);
  if (context.workspaceFolder !== undefined) {
    result = result.replace(/\$\{workspaceFolder\}/g, context.workspaceFolder);
    if (/[\\/]/.test(result) && !path.isAbsolute(result)) result = path.join(context.workspaceFolder, result);
  }
  return result;
}

/** The interpreter selected in the Python extension, if it tells. */
export async function interpreterFromExtension(
  api: PythonExtensionApi | undefined,
  resource?: unknown,
): Promise<string | undefined> {
  if (api === undefined) return undefined;
  try {
    const environments = api.environments;
    if (environments !== undefined) {
      const active = environments.getActiveEnvironmentPath(resource);
      if (active !== undefined) {
        const resolved = await environments.resolveEnvironment(active);
        const path = resolved?.executable.uri?.fsPath;
        if (path) return path;
        if (active.path) return active.path;
      }
    }
    const command = api.settings?.getExecutionDetails(resource)?.execCommand;
    if (command !== undefined && command.length === 1 && command[0]) return command[0];
  } catch {
    // A broken or still-activating Python extension: fall back to the default.
  }
  return undefined;
}

/**
 * The interpreters to try, in order: the setting alone when it is set (a
 * broken one is reported, not replaced); else the interpreter selected in the
 * Python extension, then the Pythons on `PATH` (the first that is 3.11+ runs
 * the server).
 */
export async function pythonCandidates(options: {
  configured: string;
  context: ExpandContext;
  platform: string;
  api: PythonExtensionApi | undefined;
  resource?: unknown;
}): Promise<PythonChoice[]> {
  if (options.configured.trim()) {
    return [{ command: expandPath(options.configured, options.context), source: 'setting' }];
  }
  const candidates: PythonChoice[] = [];
  const fromExtension = await interpreterFromExtension(options.api, options.resource);
  if (fromExtension !== undefined) candidates.push({ command: fromExtension, source: 'python-extension' });
  for (const name of pathPythons(options.platform)) {
    if (!candidates.some((candidate) => candidate.command === name)) candidates.push({ command: name, source: 'path' });
  }
  return candidates;
}

/** The script that checks the interpreter before its own `inputmend` is started. */
export const PROBE_SCRIPT =
  'import sys\n' +
  'if sys.version_info < (3, 11):\n' +
  '    sys.stderr.write("inputmend needs Python >= 3.11, this is %d.%d" % sys.version_info[:2])\n' +
  '    sys.exit(3)\n' +
  'import inputmend\n' +
  'print(inputmend.__version__)\n';

/** What happened when the probe ran. */
export type ProbeResult =
  | { kind: 'ok'; version: string }
  | { kind: 'not-found'; error: string }
  | { kind: 'too-old'; detail: string }
  | { kind: 'not-installed'; detail: string }
  | { kind: 'error'; detail: string };

/** Classifies the probe's outcome (exit code, output, or the spawn error code). */
export function classifyProbe(result: {
  spawnError?: string | undefined;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}): ProbeResult {
  if (result.spawnError !== undefined) {
    return { kind: 'not-found', error: result.spawnError };
  }
  if (result.exitCode === 0) {
    return { kind: 'ok', version: result.stdout.trim() };
  }
  const detail = result.stderr.trim().split('\n').pop() ?? '';
  if (result.exitCode === 3) {
    return { kind: 'too-old', detail: result.stderr.trim() };
  }
  if (/ModuleNotFoundError|No module named/.test(result.stderr)) {
    return { kind: 'not-installed', detail };
  }
  return { kind: 'error', detail: detail || `exit code ${String(result.exitCode)}` };
}

const SETTING = 'inputmend.server.pythonPath';

/** A message that says what is wrong and how to fix it. */
export function problemMessage(choice: PythonChoice, probe: ProbeResult): string | undefined {
  const where =
    choice.source === 'setting'
      ? `(from the setting ${SETTING})`
      : choice.source === 'python-extension'
        ? '(the interpreter selected in the Python extension)'
        : `(found on PATH; set ${SETTING} to choose another)`;
  switch (probe.kind) {
    case 'ok':
      return undefined;
    case 'not-found':
      return `inputmend: cannot run the Python interpreter "${choice.command}" ${where}: ${probe.error}. Install Python 3.11+ or set ${SETTING}.`;
    case 'too-old':
      return `inputmend: ${probe.detail} ("${choice.command}" ${where}). Set ${SETTING} to a Python 3.11+ interpreter.`;
    case 'not-installed':
      return `inputmend is not installed for ${choice.command} ${where}: run "${choice.command} -m pip install inputmend", or set ${SETTING} to an interpreter that has it.`;
    case 'error':
      return `inputmend: "${choice.command} -c 'import inputmend'" failed ${where}: ${probe.detail}. See the output channel "inputmend".`;
  }
}

/** How the probe and the server are started. */
export interface ServerLaunch {
  probe: string[];
  server: string[];
  /** Runs the server the extension carries (else the interpreter's own `inputmend`). */
  bundled: boolean;
}

/**
 * The arguments of the probe and of the server, all of them: the language
 * client is given no transport, so it adds no flag of its own. With the
 * extension's own server (`launcher`: its `bundled/tool/server.py`, which puts
 * `bundled/libs` first on `sys.path`), any Python 3.11+ runs it; without one (a
 * build of the extension without the bundle), the interpreter's `inputmend`.
 * `-P` (Python 3.11+, which the probe checked) keeps the script's or working
 * directory off `sys.path`, also in the worker processes the server spawns; the
 * working directory is the extension's own folder anyway (see `launchOptions`).
 */
export function serverLaunch(launcher: string | undefined): ServerLaunch {
  if (launcher === undefined) {
    return { probe: ['-c', PROBE_SCRIPT], server: ['-P', '-m', 'inputmend', 'lsp'], bundled: false };
  }
  return { probe: [launcher, '--probe'], server: ['-P', launcher, 'lsp'], bundled: true };
}

/**
 * Where and how the probe and the server run: in `neutralDir` (a folder of
 * the extension's own, holding no Python code), so neither `python -c`, nor
 * `python -m`, nor a relative entry of `PYTHONPATH` can import a `json.py` or
 * `inputmend.py` of the opened folder. `PYTHONSAFEPATH` is set for the probe
 * only: older Pythons ignore it and are then reported as too old, and the
 * server's validators must keep their own `sys.path` behaviour.
 */
export function launchOptions(
  neutralDir: string,
  env: Record<string, string | undefined>,
  purpose: 'probe' | 'server',
): { cwd: string; env: Record<string, string | undefined> } {
  const extra = purpose === 'probe' ? { PYTHONSAFEPATH: '1' } : { PYTHONUNBUFFERED: '1' };
  return { cwd: neutralDir, env: { ...env, ...extra } };
}

/** The workspace folder that contains `command`, if it is a path inside one. */
export function folderContaining(command: string, folders: readonly string[]): string | undefined {
  if (!path.isAbsolute(command)) return undefined;
  return folders.find((folder) => {
    const relative = path.relative(folder, command);
    return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
  });
}

/**
 * Why an interpreter must not run in an untrusted workspace: one inside the
 * workspace (a `.venv` of the opened folder) is the folder's own code, and so
 * is every package of its site-packages.
 */
export function untrustedInterpreterMessage(choice: PythonChoice, folders: readonly string[]): string | undefined {
  const folder = folderContaining(choice.command, folders);
  if (folder === undefined) return undefined;
  return `inputmend: the interpreter "${choice.command}" lies inside the untrusted folder ${folder}; it is not run in Restricted Mode. Trust the workspace, or set ${SETTING} (in User or Remote settings) to an interpreter outside it.`;
}

/** One interpreter tried, and what its probe found. */
export interface Attempt {
  choice: PythonChoice;
  probe: ProbeResult;
}

/** Why no interpreter runs the server: the one configured, or each one tried. */
export function noPythonMessage(attempts: readonly Attempt[]): string {
  if (attempts.length === 1) {
    const [only] = attempts;
    return problemMessage(only.choice, only.probe) ?? `inputmend: ${only.choice.command} cannot run the server.`;
  }
  const reasons = attempts
    .filter((attempt) => attempt.probe.kind !== 'not-found')
    .map(({ choice, probe }) => `${choice.command}: ${'detail' in probe ? probe.detail : probe.kind}`);
  const tried = attempts.map((attempt) => attempt.choice.command).join(', ');
  return (
    `inputmend: no Python 3.11 or newer found to run the server (tried ${tried}` +
    (reasons.length > 0 ? `; ${reasons.join('; ')}` : '') +
    `). Install Python 3.11+, select it in the Python extension, or set ${SETTING}.`
  );
}
