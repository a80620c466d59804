/**
 * The language client's lifecycle: resolve and check the interpreter, start,
 * restart on relevant setting changes, feed the status bar, say why the
 * server is not running (and stop saying it once it runs), and hand the
 * server's suggestion on save its "Show all repairs" quick pick.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  MessageActionItem,
  MessageType,
  Middleware,
  ResponseError,
  ServerOptions,
  ShowMessageRequest,
  ShowMessageRequestParams,
  State,
  TextDocumentFilter,
} from 'vscode-languageclient/node';
import { answerConfiguration } from './configurationAnswer';
import { currentPythonSetting, currentServerSettings, firstWorkspaceFolder, SECTION, workspaceFolderUris } from './config';
import {
  Attempt,
  classifyProbe,
  launchOptions,
  noPythonMessage,
  ProbeResult,
  PythonChoice,
  PythonExtensionApi,
  pythonCandidates,
  ServerLaunch,
  serverLaunch,
  untrustedInterpreterMessage,
} from './python';
import { isSaveSuggestion, SAVE_SUGGESTION, suggestedDocument } from './repairs';
import { documentSelector, FileFilter } from './selector';
import { needsRestart, oracleGlobs, RestartKey } from './settings';
import { Severity, StatusModel } from './status';
import { FailureNotice, StatusBar } from './statusBar';

const PYTHON_EXTENSION = 'ms-python.python';

function severity(value: vscode.DiagnosticSeverity): Severity {
  switch (value) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'info';
    default:
      return 'hint';
  }
}

function diagnosticCode(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** Protocol filters as VS Code filters (for `languages.match`). */
export function asVscodeSelector(filters: readonly FileFilter[]): vscode.DocumentFilter[] {
  return filters.map((filter) => ({
    scheme: filter.scheme,
    ...(filter.language !== undefined ? { language: filter.language } : {}),
    pattern: filter.pattern,
  }));
}

function asProtocolFilter(filter: FileFilter): TextDocumentFilter {
  const pattern = filter.pattern;
  return filter.language !== undefined
    ? { scheme: filter.scheme, language: filter.language, pattern }
    : { scheme: filter.scheme, pattern };
}

function runProbe(command: string, args: string[], neutralDir: string): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { ...launchOptions(neutralDir, process.env, 'probe'), timeout: 30_000, windowsHide: true },
      (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        const spawnError = typeof code === 'string' ? `${code} (${error?.message ?? ''})` : undefined;
        const exitCode = error === null ? 0 : typeof code === 'number' ? code : null;
        resolve(classifyProbe({ spawnError, exitCode, stdout: String(stdout), stderr: String(stderr) }));
      },
    );
  });
}

export class Controller implements vscode.Disposable {
  readonly output: vscode.OutputChannel;
  readonly status = new StatusModel();
  readonly statusBar: StatusBar;
  private client: LanguageClient | undefined;
  private key: RestartKey | undefined;
  private selector: vscode.DocumentFilter[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  private pythonListener: vscode.Disposable | undefined;
  private readonly notice = new FailureNotice();
  /** Documents saved lately, the last first (whose suggestion on save may come). */
  private saved: vscode.TextDocument[] = [];
  /** Shows the ranked repairs of a document in the quick pick (set by the extension). */
  showRepairs: ((document: vscode.TextDocument) => Promise<void>) | undefined;

  /** How the server starts: the one the extension carries, when it does. */
  private readonly launch: ServerLaunch;

  /** `neutralDir`: where the probe and the server run (the extension's own folder, never the opened one). */
  constructor(private readonly neutralDir: string) {
    const bundled = fs.existsSync(path.join(neutralDir, 'bundled', 'libs', 'inputmend'));
    this.launch = serverLaunch(bundled ? path.join(neutralDir, 'bundled', 'tool', 'server.py') : undefined);
    this.output = vscode.window.createOutputChannel('inputmend');
    this.statusBar = new StatusBar(this.status, (document) => this.handles(document));
    this.disposables.push(
      this.output,
      this.statusBar,
      this.notice,
      vscode.workspace.onDidSaveTextDocument((document) => {
        this.saved = [document, ...this.saved.filter((other) => other !== document)].slice(0, 8);
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.statusBar.render()),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.status.forget(document.uri.toString());
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SECTION)) void this.enqueue(() => this.reconfigure());
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.enqueue(() => this.reconfigure())),
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.enqueue(() => this.reconfigure())),
    );
  }

  get languageClient(): LanguageClient | undefined {
    return this.client?.state === State.Running ? this.client : undefined;
  }

  handles(document: vscode.TextDocument): boolean {
    return this.selector.length > 0 && vscode.languages.match(this.selector, document) > 0;
  }

  /** Runs lifecycle operations one after another. */
  enqueue(operation: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(operation).catch((error: unknown) => {
      this.log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    });
    return this.queue;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.restartNow());
  }

  restart(): Promise<void> {
    return this.enqueue(() => this.restartNow());
  }

  log(message: string): void {
    this.output.appendLine(`[client ${new Date().toLocaleTimeString()}] ${message}`);
  }

  private async pythonApi(): Promise<PythonExtensionApi | undefined> {
    const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION);
    if (extension === undefined) return undefined;
    try {
      const api = extension.isActive ? extension.exports : await extension.activate();
      this.watchInterpreter(api);
      return api;
    } catch (error) {
      this.log(`the Python extension did not activate: ${String(error)}`);
      return undefined;
    }
  }

  /** Restart when the user picks another interpreter in the Python extension (unless a path is configured). */
  private watchInterpreter(api: PythonExtensionApi | undefined): void {
    const environments = api?.environments;
    if (this.pythonListener !== undefined || environments?.onDidChangeActiveEnvironmentPath === undefined) return;
    this.pythonListener = environments.onDidChangeActiveEnvironmentPath(() => {
      if (!currentPythonSetting()) void this.enqueue(() => this.reconfigure());
    });
  }

  /** The interpreters to try, in order (the first one is what a restart compares). */
  private async pythons(): Promise<PythonChoice[]> {
    const configured = currentPythonSetting();
    return pythonCandidates({
      configured,
      context: { workspaceFolder: firstWorkspaceFolder(), home: os.homedir() },
      platform: process.platform,
      api: configured ? undefined : await this.pythonApi(),
      resource: vscode.window.activeTextEditor?.document.uri,
    });
  }

  private async restartKey(python: string): Promise<RestartKey> {
    return { python, globs: oracleGlobs(currentServerSettings().oracles), folders: workspaceFolderUris() };
  }

  /** Restart when the interpreter or the selector changed, else push the new settings. */
  private async reconfigure(): Promise<void> {
    const key = await this.restartKey((await this.pythons())[0].command);
    if (needsRestart(this.key, key) || this.client === undefined) {
      await this.restartNow();
      return;
    }
    await this.sendSettings();
  }

  async sendSettings(): Promise<void> {
    const client = this.languageClient;
    if (client === undefined) return;
    await client.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { [SECTION]: currentServerSettings() },
    });
  }

  private async stopNow(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    try {
      if (client.needsStop()) await client.stop(5000);
    } catch (error) {
      this.log(`stopping the server: ${String(error)}`);
    } finally {
      await client.dispose().catch(() => undefined);
    }
  }

  private fail(message: string, settings = true): void {
    this.status.setServer('failed', message);
    this.statusBar.render();
    this.log(message);
    const log = { title: 'Show Log', command: 'inputmend.showServerLog' };
    const open = { title: 'Open Settings', command: 'workbench.action.openSettings', args: ['inputmend.server.pythonPath'] };
    this.notice.show(message, settings ? [open, log] : [log]);
  }

  /**
   * The server's message requests, shown as vscode-languageclient would; but
   * "Show all repairs" of the suggestion on save opens the quick pick of Show
   * Repairs, and the server is answered with nothing (it would show a text
   * listing otherwise).
   */
  private async messageRequest(params: ShowMessageRequestParams): Promise<MessageActionItem | null> {
    const show: (message: string, ...items: MessageActionItem[]) => Thenable<MessageActionItem | undefined> =
      params.type === MessageType.Error
        ? vscode.window.showErrorMessage
        : params.type === MessageType.Warning
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    const choice = await show(params.message, ...(params.actions ?? []));
    if (choice?.title === SAVE_SUGGESTION.listing && isSaveSuggestion(params) && this.showRepairs !== undefined) {
      const active = vscode.window.activeTextEditor?.document;
      const document = suggestedDocument(params.message, active === undefined ? this.saved : [active, ...this.saved]);
      if (document !== undefined) {
        void this.showRepairs(document);
        return null;
      }
    }
    return choice ?? null;
  }

  private async restartNow(): Promise<void> {
    await this.stopNow();
    this.status.setServer('starting');
    this.statusBar.render();

    const candidates = await this.pythons();
    const key = await this.restartKey(candidates[0].command);
    const filters = documentSelector(key.globs);
    this.selector = asVscodeSelector(filters);
    this.key = key;

    const python = await this.firstSuitable(candidates);
    if (python === undefined) return;
    // No `transport`: the client would append its own flag (`--stdio`) to the arguments.
    const serverOptions: ServerOptions = {
      command: python.command,
      args: this.launch.server,
      options: launchOptions(this.neutralDir, process.env, 'server'),
    };
    this.log(`starting: ${python.command} ${this.launch.server.join(' ')} (in ${this.neutralDir})`);
    const clientOptions: LanguageClientOptions = {
      documentSelector: filters.map(asProtocolFilter),
      outputChannel: this.output,
      diagnosticCollectionName: 'inputmend',
      initializationOptions: () => currentServerSettings(),
      middleware: this.middleware(),
      connectionOptions: { maxRestartCount: 3 },
    };
    const client = new LanguageClient('inputmend', 'inputmend', serverOptions, clientOptions);
    client.onRequest(ShowMessageRequest.type, (params) => this.messageRequest(params));
    client.onDidChangeState((event) => {
      // A client being replaced (restart) or stopped is no longer `this.client`.
      if (this.client !== client) return;
      if (event.newState === State.Running) this.status.setServer('running');
      else if (event.newState === State.Starting) this.status.setServer('starting');
      else this.status.setServer('failed', 'The inputmend server stopped unexpectedly; see the output channel "inputmend".');
      this.statusBar.render();
    });
    this.client = client;
    try {
      await client.start();
      this.status.setServer('running');
      this.statusBar.render();
      this.notice.dismiss();
    } catch (error) {
      if (this.client === client) {
        this.fail(`inputmend: the server did not start (${error instanceof Error ? error.message : String(error)}).`, false);
      }
    }
  }

  /**
   * The first candidate that runs the server, logged; none: the status bar
   * and a notification say why. In an untrusted workspace an interpreter
   * inside the workspace is never run: a configured one is refused, one the
   * Python extension selected is passed over.
   */
  private async firstSuitable(candidates: PythonChoice[]): Promise<PythonChoice | undefined> {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    const attempts: Attempt[] = [];
    for (const python of candidates) {
      this.log(`interpreter: ${python.command} (${python.source})`);
      const untrusted = vscode.workspace.isTrusted ? undefined : untrustedInterpreterMessage(python, folders);
      if (untrusted !== undefined && python.source === 'setting') {
        this.fail(untrusted);
        return undefined;
      }
      const probe: ProbeResult =
        untrusted !== undefined
          ? { kind: 'error', detail: 'inside the untrusted workspace, not run in Restricted Mode' }
          : await runProbe(python.command, this.launch.probe, this.neutralDir);
      if (probe.kind === 'ok') {
        this.log(`inputmend ${probe.version}`);
        return python;
      }
      this.log(`  not used: ${probe.kind === 'not-found' ? probe.error : probe.detail}`);
      attempts.push({ choice: python, probe });
    }
    this.fail(noPythonMessage(attempts));
    return undefined;
  }

  private middleware(): Middleware {
    return {
      workspace: {
        // Answer `workspace/configuration` with the trust-filtered settings.
        configuration: (params, token, next) =>
          answerConfiguration(
            params.items,
            SECTION,
            (scopeUri) => currentServerSettings(scopeUri ? vscode.Uri.parse(scopeUri) : undefined),
            async () => next(params, token),
            (answer): answer is ResponseError<void> => answer instanceof ResponseError,
          ),
        // The client would send unfiltered settings; `sendSettings` sends the filtered ones.
        didChangeConfiguration: () => this.sendSettings(),
      },
      handleDiagnostics: (uri, diagnostics, next) => {
        this.status.setDiagnostics(
          uri.toString(),
          diagnostics.map((diagnostic) => ({
            code: diagnosticCode(diagnostic.code),
            severity: severity(diagnostic.severity),
            message: diagnostic.message,
            source: diagnostic.source,
          })),
        );
        next(uri, diagnostics);
        this.statusBar.render();
      },
      handleWorkDoneProgress: (token, params, next) => {
        this.status.onProgress(String(token), params);
        next(token, params);
        this.statusBar.render();
      },
    };
  }

  async stop(): Promise<void> {
    await this.enqueue(() => this.stopNow());
  }

  dispose(): void {
    this.pythonListener?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
