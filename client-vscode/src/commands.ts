/** The extension's commands: repair, choose a repair with a diff preview, explain, restart. */
import * as vscode from 'vscode';
import {
  CodeAction,
  CodeActionKind,
  CodeActionParams,
  CodeActionRequest,
  CodeActionTriggerKind,
  Command,
  ExecuteCommandRequest,
  LanguageClient,
} from 'vscode-languageclient/node';
import { Controller } from './controller';
import { RepairPreviewProvider } from './preview';
import { bestChoice, RepairChoice, repairChoices } from './repairs';

type Repair = RepairChoice<Command | CodeAction>;
import { baseName } from './status';

const EXPLAIN = 'inputmend.explainFailure';
/** Returns once the server's background analysis of the document is over. */
const AWAIT_ANALYSIS = 'inputmend.awaitAnalysis';

interface Target {
  client: LanguageClient;
  document: vscode.TextDocument;
}

/** The document (default: the active one), if the server handles it and is running; tells the user otherwise. */
function target(controller: Controller, given?: vscode.TextDocument): Target | undefined {
  const document = given ?? vscode.window.activeTextEditor?.document;
  if (document === undefined) {
    void vscode.window.showInformationMessage('inputmend: open a document first.');
    return undefined;
  }
  const client = controller.languageClient;
  if (client === undefined) {
    void vscode.window
      .showWarningMessage('inputmend: the server is not running.', 'Restart Server', 'Show Log')
      .then((choice) => {
        if (choice === 'Restart Server') void controller.restart();
        if (choice === 'Show Log') controller.output.show(true);
      });
    return undefined;
  }
  if (!controller.handles(document)) {
    void vscode.window.showInformationMessage(
      `inputmend: ${baseName(document.fileName)} is not checked by inputmend (map it in the setting inputmend.oracles).`,
    );
    return undefined;
  }
  return { client, document };
}

async function requestActions({ client, document }: Target): Promise<(Command | CodeAction)[]> {
  const end = document.positionAt(document.getText().length);
  const params: CodeActionParams = {
    textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
    range: { start: { line: 0, character: 0 }, end: { line: end.line, character: end.character } },
    context: { diagnostics: [], only: [CodeActionKind.QuickFix], triggerKind: CodeActionTriggerKind.Invoked },
  };
  const result = await client.sendRequest(CodeActionRequest.type, params);
  return result ?? [];
}

/**
 * The ranked repairs of the document. They are computed in the background:
 * the server answers `inputmend.awaitAnalysis` once they are there, then the
 * code actions are asked for once.
 */
async function fetchRepairs(target: Target): Promise<Repair[] | undefined> {
  const { client, document } = target;
  const uri = client.code2ProtocolConverter.asUri(document.uri);
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `inputmend: repairs of ${baseName(document.fileName)}`,
      cancellable: true,
    },
    async (progress, token) => {
      progress.report({ message: 'waiting for the background analysis…' });
      try {
        await client.sendRequest(ExecuteCommandRequest.type, { command: AWAIT_ANALYSIS, arguments: [uri] }, token);
      } catch (error) {
        if (!token.isCancellationRequested) client.warn('inputmend: waiting for the analysis failed', error, false);
      }
      if (token.isCancellationRequested) return undefined;
      return repairChoices(document.getText(), uri, await requestActions(target));
    },
  );
}

async function apply(client: LanguageClient, document: vscode.TextDocument, choice: Repair): Promise<boolean> {
  if (choice.version !== undefined && choice.version !== document.version) {
    void vscode.window.showWarningMessage('inputmend: the document changed since the repair was computed; try again.');
    return false;
  }
  const action = choice.action;
  if (!CodeAction.is(action) || action.edit === undefined) return false;
  const edit = await client.protocol2CodeConverter.asWorkspaceEdit(action.edit);
  const applied = await vscode.workspace.applyEdit(edit);
  if (!applied) {
    void vscode.window.showWarningMessage('inputmend: the repair could not be applied (the document changed?).');
  }
  return applied;
}

function noRepairs(document: vscode.TextDocument, choices: Repair[] | undefined): void {
  if (choices === undefined) return;
  void vscode.window.showInformationMessage(
    `inputmend: no repair for ${baseName(document.fileName)} (it is valid, or the analysis found none within the budget: see the Problems view).`,
  );
}

export async function repairDocument(controller: Controller): Promise<void> {
  const found = target(controller);
  if (found === undefined) return;
  const choices = await fetchRepairs(found);
  const best = choices === undefined ? undefined : bestChoice(choices);
  if (best === undefined) {
    noRepairs(found.document, choices);
    return;
  }
  if (await apply(found.client, found.document, best)) {
    vscode.window.setStatusBarMessage(`inputmend: applied "${best.label}"`, 4000);
  }
}

interface RepairItem extends vscode.QuickPickItem {
  choice: Repair;
}

/**
 * Show Repairs: the ranked repairs of the active document (or of `document`,
 * e.g. the one the suggestion on save is about) in a quick pick with a diff
 * preview of the highlighted one; accepting one applies it.
 */
export async function chooseRepair(
  controller: Controller,
  previews: RepairPreviewProvider,
  given?: vscode.TextDocument,
): Promise<void> {
  const found = target(controller, given);
  if (found === undefined) return;
  const { client, document } = found;
  const choices = await fetchRepairs(found);
  if (choices === undefined || choices.length === 0) {
    noRepairs(document, choices);
    return;
  }
  const pick = vscode.window.createQuickPick<RepairItem>();
  pick.title = `inputmend: ranked repairs of ${baseName(document.fileName)}`;
  pick.placeholder = 'Select a repair to apply; the diff editor previews the highlighted one';
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = choices.map((choice) => ({
    label: `${choice.preferred ? '$(star-full) ' : ''}${choice.label}`,
    description: choice.description,
    detail: choice.detail,
    choice,
  }));

  // Show one preview at a time; the latest highlighted item wins.
  let shown: Repair | undefined;
  let previewing = Promise.resolve();
  const preview = (choice: Repair): void => {
    previewing = previewing.then(async () => {
      if (shown === choice || pick.activeItems[0]?.choice !== choice) return;
      shown = choice;
      await previews.show(document, choice, vscode.ViewColumn.Beside);
    });
  };

  const accepted = new Promise<Repair | undefined>((resolve) => {
    pick.onDidChangeActive((items) => {
      const item = items[0];
      if (item !== undefined) preview(item.choice);
    });
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0]?.choice ?? pick.activeItems[0]?.choice);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
  });
  pick.show();
  const choice = await accepted;
  pick.dispose();
  await previewing.catch(() => undefined);
  await previews.closeAll();
  if (choice !== undefined) {
    await vscode.window.showTextDocument(document);
    if (await apply(client, document, choice)) {
      vscode.window.setStatusBarMessage(`inputmend: applied "${choice.label}"`, 4000);
    }
  }
}

export async function explainDocument(controller: Controller): Promise<void> {
  const found = target(controller);
  if (found === undefined) return;
  const { client, document } = found;
  const uri = client.code2ProtocolConverter.asUri(document.uri);
  const pattern = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `inputmend: explaining why ${baseName(document.fileName)} fails (DDSET)…`,
    },
    () => client.sendRequest(ExecuteCommandRequest.type, { command: EXPLAIN, arguments: [uri] }),
  );
  if (typeof pattern === 'string' && pattern) {
    void vscode.window.showInformationMessage(`inputmend: ${baseName(document.fileName)} fails for inputs like \`${pattern}\``);
  }
  // Otherwise the server has already said why (a warning message).
}
