/** Renders the status model into a status bar item. */
import * as vscode from 'vscode';
import { ActiveDocument, StatusModel, StatusView } from './status';

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(
    private readonly model: StatusModel,
    private readonly handles: (document: vscode.TextDocument) => boolean,
  ) {
    this.item = vscode.window.createStatusBarItem('inputmend.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'inputmend';
  }

  activeDocument(): ActiveDocument | undefined {
    const document = vscode.window.activeTextEditor?.document;
    if (document === undefined) return undefined;
    return { uri: document.uri.toString(), fileName: document.fileName, handled: this.handles(document) };
  }

  render(): StatusView {
    const view = this.model.view(this.activeDocument());
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.command = view.command;
    this.item.backgroundColor =
      view.tone === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.tone === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    if (view.visible) this.item.show();
    else this.item.hide();
    return view;
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** A command a failure notice links to. */
export interface NoticeLink {
  title: string;
  command: string;
  args?: unknown[];
}

/** A `command:` link in a notification's message. */
export function commandLink(link: NoticeLink): string {
  const query = link.args === undefined ? '' : `?${encodeURIComponent(JSON.stringify(link.args))}`;
  return `[${link.title}](command:${link.command}${query})`;
}

/**
 * The notification that says why the server is not running. It is a
 * progress notification, the one kind an extension can close: a restart that
 * succeeds closes it, so no stale "not installed" stays on screen. Its
 * actions are links in the message; Cancel dismisses it.
 */
export class FailureNotice implements vscode.Disposable {
  private close: (() => void) | undefined;

  show(message: string, links: readonly NoticeLink[]): void {
    this.dismiss();
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    this.close = close;
    const text = [message, ...links.map(commandLink)].join(' ');
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, cancellable: true },
      (progress, token) => {
        // A full bar: nothing is in progress, the notice just waits to be closed.
        progress.report({ message: text, increment: 100 });
        token.onCancellationRequested(() => close());
        return closed;
      },
    );
  }

  dismiss(): void {
    this.close?.();
    this.close = undefined;
  }

  dispose(): void {
    this.dismiss();
  }
}
