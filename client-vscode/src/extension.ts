/** Entry point: wires the controller, the commands and the repair preview provider. */
import * as vscode from 'vscode';
import { chooseRepair, explainDocument, repairDocument } from './commands';
import { Controller } from './controller';
import { RepairPreviewProvider } from './preview';
import { PREVIEW_SCHEME } from './repairs';

let controller: Controller | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const current = new Controller(context.extensionUri.fsPath);
  controller = current;
  const previews = new RepairPreviewProvider();
  current.showRepairs = (document) => chooseRepair(current, previews, document);
  context.subscriptions.push(
    current,
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.commands.registerCommand('inputmend.repairDocument', () => repairDocument(current)),
    vscode.commands.registerCommand('inputmend.chooseRepair', () => chooseRepair(current, previews)),
    vscode.commands.registerCommand('inputmend.explainDocument', () => explainDocument(current)),
    vscode.commands.registerCommand('inputmend.restartServer', () => current.restart()),
    vscode.commands.registerCommand('inputmend.showServerLog', () => current.output.show(true)),
  );
  // Not awaited: activation must not wait for (or fail with) the server.
  void current.start();
}

export async function deactivate(): Promise<void> {
  const current = controller;
  controller = undefined;
  if (current !== undefined) await current.stop();
}
