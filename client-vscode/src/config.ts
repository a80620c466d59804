/** Reads the `inputmend` settings from VS Code and applies the trust rules of `settings.ts`. */
import * as vscode from 'vscode';
import { configuredPythonPath, Inspected, serverSettings, ServerSettings } from './settings';

export const SECTION = 'inputmend';

function inspector(scope: vscode.Uri | undefined): (key: string) => Inspected | undefined {
  const configuration = vscode.workspace.getConfiguration(SECTION, scope ?? null);
  return (key: string) => configuration.inspect(key);
}

/** The settings sent to the server (initializationOptions, workspace/configuration, didChangeConfiguration). */
export function currentServerSettings(scope?: vscode.Uri): ServerSettings {
  return serverSettings(inspector(scope), vscode.workspace.isTrusted);
}

/** The configured interpreter (may be empty: then the Python extension or `python3` decide). */
export function currentPythonSetting(): string {
  return configuredPythonPath(inspector(undefined)('server.pythonPath'), vscode.workspace.isTrusted);
}

export function firstWorkspaceFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

export function workspaceFolderUris(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString());
}
