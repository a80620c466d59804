/**
 * A small stand-in for the `vscode` module, installed by hooking Node's module
 * loader, so that glue modules can be loaded and exercised without VS Code.
 */
import Module = require('module');
import { Inspected } from '../../src/settings';

type Listener = (...args: unknown[]) => unknown;

export interface Disposable {
  dispose(): void;
}

export interface MockStatusBarItem {
  text: string;
  tooltip: string | undefined;
  command: string | undefined;
  visible: boolean;
  name?: string;
  backgroundColor?: unknown;
  show(): void;
  hide(): void;
  dispose(): void;
}

/** A progress notification: its title, the last message reported, whether it closed. */
export interface MockNotice {
  title: string;
  message: string;
  closed: boolean;
  cancel(): void;
}

export interface MockState {
  /** `inputmend.<key>` -> inspect() result. */
  settings: Map<string, Inspected>;
  trusted: boolean;
  workspaceFolders: { uri: { fsPath: string; toString(): string } }[];
  errors: string[];
  warnings: string[];
  infos: string[];
  output: string[];
  commands: Map<string, Listener>;
  statusItems: MockStatusBarItem[];
  notices: MockNotice[];
}

const noopDisposable: Disposable = { dispose: () => undefined };
const event = (): ((listener: Listener) => Disposable) => () => noopDisposable;

class EventEmitter<T> {
  private listeners: ((value: T) => void)[] = [];
  event = (listener: (value: T) => void): Disposable => {
    this.listeners.push(listener);
    return noopDisposable;
  };
  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class ThemeColor {
  constructor(readonly id: string) {}
}

/** Any member not modelled here is a harmless class (the language client extends some at load time). */
function withFallback<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (property in object) return Reflect.get(object, property, receiver);
      if (typeof property === 'symbol') return undefined;
      return class Placeholder {};
    },
  });
}

export function createVscodeMock(state: MockState): object {
  const configuration = (section: string) => ({
    inspect: (key: string) => state.settings.get(`${section}.${key}`),
    get: <T>(key: string, fallback?: T): T | undefined => {
      const inspected = state.settings.get(`${section}.${key}`) as Inspected<T> | undefined;
      return (
        inspected?.workspaceFolderValue ??
        inspected?.workspaceValue ??
        inspected?.globalValue ??
        inspected?.defaultValue ??
        fallback
      );
    },
    has: (key: string) => state.settings.has(`${section}.${key}`),
    update: async () => undefined,
  });
  const message = (list: string[]) => (text: string) => {
    list.push(text);
    return Promise.resolve(undefined);
  };
  return withFallback({
    EventEmitter,
    ThemeColor,
    StatusBarAlignment: { Left: 1, Right: 2 },
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    Uri: {
      parse: (value: string) => ({ toString: () => value, fsPath: value.replace(/^file:\/\//, '') }),
      file: (path: string) => ({ toString: () => `file://${path}`, fsPath: path }),
    },
    window: withFallback({
      activeTextEditor: undefined,
      createOutputChannel: () => ({
        appendLine: (line: string) => state.output.push(line),
        append: (text: string) => state.output.push(text),
        show: () => undefined,
        hide: () => undefined,
        clear: () => undefined,
        replace: () => undefined,
        dispose: () => undefined,
        name: 'inputmend',
      }),
      createStatusBarItem: () => {
        const item: MockStatusBarItem = {
          text: '',
          tooltip: undefined,
          command: undefined,
          visible: false,
          show() {
            item.visible = true;
          },
          hide() {
            item.visible = false;
          },
          dispose: () => undefined,
        };
        state.statusItems.push(item);
        return item;
      },
      showErrorMessage: message(state.errors),
      showWarningMessage: message(state.warnings),
      showInformationMessage: message(state.infos),
      onDidChangeActiveTextEditor: event(),
      withProgress: async (
        options: { title?: string },
        task: (progress: unknown, token: unknown) => Promise<unknown>,
      ): Promise<unknown> => {
        const cancelled = new EventEmitter<void>();
        const notice: MockNotice = {
          title: options.title ?? '',
          message: '',
          closed: false,
          cancel: () => cancelled.fire(),
        };
        state.notices.push(notice);
        const progress = {
          report: (value: { message?: string }) => {
            if (value.message !== undefined) notice.message = value.message;
          },
        };
        try {
          return await task(progress, { isCancellationRequested: false, onCancellationRequested: cancelled.event });
        } finally {
          notice.closed = true;
        }
      },
    }),
    workspace: withFallback({
      get isTrusted() {
        return state.trusted;
      },
      get workspaceFolders() {
        return state.workspaceFolders;
      },
      getConfiguration: configuration,
      onDidChangeConfiguration: event(),
      onDidGrantWorkspaceTrust: event(),
      onDidChangeWorkspaceFolders: event(),
      onDidCloseTextDocument: event(),
      onDidSaveTextDocument: event(),
      onDidOpenTextDocument: event(),
      onDidChangeTextDocument: event(),
      registerTextDocumentContentProvider: () => noopDisposable,
      textDocuments: [],
    }),
    commands: withFallback({
      registerCommand: (id: string, handler: Listener) => {
        state.commands.set(id, handler);
        return noopDisposable;
      },
      executeCommand: async () => undefined,
    }),
    extensions: withFallback({ getExtension: () => undefined }),
    languages: withFallback({ match: () => 0, createDiagnosticCollection: () => noopDisposable }),
  });
}

export function newState(): MockState {
  return {
    settings: new Map(),
    trusted: true,
    workspaceFolders: [],
    errors: [],
    warnings: [],
    infos: [],
    output: [],
    commands: new Map(),
    statusItems: [],
    notices: [],
  };
}

interface Loader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
}

/** Makes `require('vscode')` return the mock in this process. */
export function installVscodeMock(state: MockState = newState()): MockState {
  const loader = Module as unknown as Loader;
  const original = loader._load;
  const api = createVscodeMock(state);
  loader._load = function (this: unknown, request: string, parent: unknown, isMain: boolean): unknown {
    if (request === 'vscode') return api;
    return original.call(this, request, parent, isMain);
  };
  return state;
}

/** Registers the contributed defaults of package.json as `defaultValue`s. */
export function withManifestDefaults(state: MockState, manifest: ManifestLike): MockState {
  for (const [key, schema] of Object.entries(manifest.contributes.configuration.properties)) {
    state.settings.set(key, { ...(state.settings.get(key) ?? {}), defaultValue: schema.default });
  }
  return state;
}

export interface ManifestLike {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
}
