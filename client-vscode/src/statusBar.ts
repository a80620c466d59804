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
