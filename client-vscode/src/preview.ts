/** Read-only virtual documents holding repaired text, shown in a diff against the document. */
import * as vscode from 'vscode';
import { diffTitle, PREVIEW_SCHEME, previewPath, RepairChoice } from './repairs';

export class RepairPreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private counter = 0;
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** A preview URI for one repair of `document`. */
  register(document: vscode.TextDocument, choice: RepairChoice): vscode.Uri {
    this.counter += 1;
    const { path, query } = previewPath(document.uri.path, choice.rank, `${document.version}-${this.counter}`);
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path, query });
    this.contents.set(uri.toString(), choice.repairedText);
    return uri;
  }

  async show(document: vscode.TextDocument, choice: RepairChoice, column: vscode.ViewColumn): Promise<vscode.Uri> {
    const uri = this.register(document, choice);
    await vscode.commands.executeCommand('vscode.diff', document.uri, uri, diffTitle(document.fileName, choice), {
      preview: true,
      preserveFocus: true,
      viewColumn: column,
    } satisfies vscode.TextDocumentShowOptions);
    return uri;
  }

  /** Closes the diff editors showing previews, and forgets their contents. */
  async closeAll(): Promise<void> {
    const tabs: vscode.Tab[] = [];
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === PREVIEW_SCHEME) {
          tabs.push(tab);
        }
      }
    }
    if (tabs.length > 0) {
      await vscode.window.tabGroups.close(tabs, true);
    }
    this.contents.clear();
  }

  dispose(): void {
    this.contents.clear();
    this.changed.dispose();
  }
}
