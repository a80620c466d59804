/**
 * The status bar state machine. Pure logic: the glue feeds it server state
 * changes, published diagnostics and work-done progress, and renders `view()`.
 */

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export type Severity = 'error' | 'warning' | 'info' | 'hint';

/** The parts of a diagnostic the status bar needs. */
export interface DiagnosticSummary {
  code: string | undefined;
  severity: Severity;
  message: string;
  source: string | undefined;
}

export type ProgressValue =
  | { kind: 'begin'; title: string; message?: string; percentage?: number }
  | { kind: 'report'; message?: string; percentage?: number }
  | { kind: 'end'; message?: string };

interface Running {
  title: string;
  file: string | undefined;
  message: string | undefined;
  percentage: number | undefined;
}

export interface ActiveDocument {
  uri: string;
  fileName: string;
  /** Whether the client's document selector hands this document to the server. */
  handled: boolean;
}

export type Tone = 'ok' | 'busy' | 'error' | 'warning' | 'off';

export interface StatusView {
  visible: boolean;
  text: string;
  tooltip: string;
  tone: Tone;
  /** A command id of this extension to run on click. */
  command?: string;
}

/** Diagnostic codes that mean "this document is invalid" (each is a problem to fix, at error severity). */
export const INVALID_CODES = new Set(['syntax', 'incomplete', 'validator', 'another-problem']);
/** Notes that deserve attention although the document may be valid. */
export const WARNING_CODES = new Set(['configuration', 'untrusted-validator', 'validator-error', 'background']);

export const COMMANDS = {
  chooseRepair: 'inputmend.chooseRepair',
  restart: 'inputmend.restartServer',
  log: 'inputmend.showServerLog',
} as const;

const TITLE_PREFIX = 'inputmend: ';

/** The file name in a progress title `inputmend: FILENAME`. */
export function progressFile(title: string): string | undefined {
  return title.startsWith(TITLE_PREFIX) ? title.slice(TITLE_PREFIX.length).trim() : undefined;
}

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export class StatusModel {
  private server: ServerState = 'stopped';
  private serverDetail: string | undefined;
  private readonly diagnostics = new Map<string, DiagnosticSummary[]>();
  private readonly progress = new Map<string, Running>();

  get serverState(): ServerState {
    return this.server;
  }

  setServer(state: ServerState, detail?: string): void {
    this.server = state;
    this.serverDetail = detail;
    if (state !== 'running') {
      this.progress.clear();
      this.diagnostics.clear();
    }
  }

  /** Diagnostics published for a document (only this extension's are kept). */
  setDiagnostics(uri: string, diagnostics: readonly DiagnosticSummary[]): void {
    this.diagnostics.set(
      uri,
      diagnostics.filter((d) => d.source === undefined || d.source === 'inputmend'),
    );
  }

  forget(uri: string): void {
    this.diagnostics.delete(uri);
  }

  onProgress(token: string, value: ProgressValue): void {
    if (value.kind === 'begin') {
      this.progress.set(token, {
        title: value.title,
        file: progressFile(value.title),
        message: value.message,
        percentage: value.percentage,
      });
      return;
    }
    const running = this.progress.get(token);
    if (running === undefined) return;
    if (value.kind === 'end') {
      this.progress.delete(token);
      return;
    }
    if (value.message !== undefined) running.message = value.message;
    if (value.percentage !== undefined) running.percentage = value.percentage;
  }

  /** Background work running for a file name (progress titles carry only the name). */
  progressFor(fileName: string): Running | undefined {
    const name = baseName(fileName);
    for (const running of this.progress.values()) {
      if (running.file === name) return running;
    }
    return undefined;
  }

  busy(fileName: string): boolean {
    return this.progressFor(fileName) !== undefined;
  }

  view(active: ActiveDocument | undefined): StatusView {
    if (this.server === 'failed') {
      return {
        visible: true,
        text: '$(error) inputmend: not running',
        tooltip: `${this.serverDetail ?? 'The inputmend server is not running.'}\nClick to restart.`,
        tone: 'error',
        command: COMMANDS.restart,
      };
    }
    if (active === undefined || !active.handled) {
      return { visible: false, text: '', tooltip: '', tone: 'off' };
    }
    if (this.server === 'starting') {
      return {
        visible: true,
        text: '$(loading~spin) inputmend',
        tooltip: 'Starting the inputmend server…',
        tone: 'busy',
        command: COMMANDS.log,
      };
    }
    if (this.server === 'stopped') {
      return {
        visible: true,
        text: '$(debug-disconnect) inputmend: stopped',
        tooltip: 'The inputmend server is stopped. Click to restart.',
        tone: 'off',
        command: COMMANDS.restart,
      };
    }
    const diagnostics = this.diagnostics.get(active.uri);
    // Problems to fix; failure-inducing regions (information) only point at them.
    const errors = (diagnostics ?? []).filter((d) => INVALID_CODES.has(d.code ?? '') && d.severity === 'error');
    const running = this.progressFor(active.fileName);
    if (running !== undefined) {
      const percent = running.percentage !== undefined ? ` ${Math.round(running.percentage)}%` : '';
      const what = running.message ?? 'analysing';
      const state = errors.length > 0 ? `invalid (${plural(errors.length, 'problem')}), ` : '';
      // The document's state stays in view while its repairs are computed.
      const known = errors.length > 0 ? `invalid (${errors.length}) · ` : '';
      return {
        visible: true,
        text: `$(sync~spin) inputmend: ${known}${what}${percent}`,
        tooltip: `${running.title}: ${state}${what}${percent}`,
        tone: 'busy',
        command: errors.length > 0 ? COMMANDS.chooseRepair : COMMANDS.log,
      };
    }
    if (diagnostics === undefined) {
      return {
        visible: true,
        text: '$(loading~spin) inputmend: checking',
        tooltip: `Checking ${baseName(active.fileName)}…`,
        tone: 'busy',
        command: COMMANDS.log,
      };
    }
    if (errors.length > 0) {
      const first = errors[0];
      return {
        visible: true,
        text: `$(error) inputmend: invalid (${errors.length})`,
        tooltip: `${baseName(active.fileName)}: ${first?.message ?? 'invalid'}\nClick to show the ranked repairs.`,
        tone: 'error',
        command: COMMANDS.chooseRepair,
      };
    }
    const notes = diagnostics.filter((d) => WARNING_CODES.has(d.code ?? ''));
    if (notes.length > 0) {
      const note = notes[0];
      const label = note?.code === 'untrusted-validator' ? 'valid (validator not run)' : note?.code ?? 'note';
      return {
        visible: true,
        text: `$(warning) inputmend: ${label}`,
        tooltip: notes.map((d) => d.message).join('\n'),
        tone: 'warning',
        command: COMMANDS.log,
      };
    }
    return {
      visible: true,
      text: '$(check) inputmend: valid',
      tooltip: `${baseName(active.fileName)} is valid.`,
      tone: 'ok',
    };
  }
}
