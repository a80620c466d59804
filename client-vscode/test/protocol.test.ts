// Drives the real Python server over stdio with vscode-jsonrpc, the transport
// vscode-languageclient uses, and checks the protocol the extension relies on.
//
// Interpreter: $INPUTMEND_PYTHON, else ../.venv/bin/python, else python3.
// Skipped (with a message) when that interpreter cannot import inputmend.
import assert from 'node:assert/strict';
import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { applyTextEdits, bestChoice, CodeActionLike, editsFor, repairChoices, WorkspaceEdit } from '../src/repairs';
import { launchOptions, serverLaunch } from '../src/python';
import { serverSettings } from '../src/settings';
import { DiagnosticSummary, ProgressValue, StatusModel } from '../src/status';
import manifest = require('../package.json');

const CLIENT_ROOT = path.resolve(__dirname, '..', '..');
const CORRUPT = '{ "name": "Dave" "age": 42 }';

function choosePython(): string {
  const configured = process.env.INPUTMEND_PYTHON;
  if (configured) return configured;
  for (const candidate of [
    path.join(CLIENT_ROOT, '..', '.venv', 'bin', 'python'),
    path.join(CLIENT_ROOT, '..', '.venv', 'Scripts', 'python.exe'),
  ]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  return process.platform === 'win32' ? 'python' : 'python3';
}

interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: { code?: string | number; severity?: number; message: string; source?: string }[];
}

function summary(diagnostic: PublishedDiagnostics['diagnostics'][number]): DiagnosticSummary {
  const severities = ['error', 'error', 'warning', 'info', 'hint'] as const;
  return {
    code: diagnostic.code === undefined ? undefined : String(diagnostic.code),
    severity: severities[diagnostic.severity ?? 1] ?? 'error',
    message: diagnostic.message,
    source: diagnostic.source,
  };
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The settings the extension would send with the contributed defaults, in a trusted workspace. */
function defaultSettings(): ReturnType<typeof serverSettings> {
  const properties = manifest.contributes.configuration.properties as Record<string, { default?: unknown }>;
  return serverSettings((key) => ({ defaultValue: properties[`inputmend.${key}`]?.default }), true);
}

test('the real server: diagnostics, ranked repairs, applyRepair, progress', { timeout: 180_000 }, async (t) => {
  const python = choosePython();
  const importable = spawnSync(python, ['-c', 'import inputmend'], { encoding: 'utf8', timeout: 60_000 });
  if (importable.status !== 0) {
    const why = importable.error?.message ?? (importable.stderr.trim().split('\n').pop() || `exit ${String(importable.status)}`);
    t.skip(`cannot import inputmend with ${python} (${why}); set INPUTMEND_PYTHON or run \`make test\` at the top level to create ../.venv`);
    return;
  }

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'inputmend-protocol-'));
  const file = path.join(scratch, 'person.json');
  fs.writeFileSync(file, CORRUPT);
  const uri = pathToFileURL(file).toString();

  // The extension's command line, plus the `--stdio` that other clients append; run
  // from a neutral folder as the extension does. A process group of its own, so
  // that teardown also reaches the server's worker processes.
  const neutral = fs.mkdtempSync(path.join(os.tmpdir(), 'inputmend-neutral-'));
  const server: ChildProcessWithoutNullStreams = spawn(python, [...serverLaunch(undefined).server, '--stdio'], {
    ...launchOptions(neutral, process.env, 'server'),
    detached: process.platform !== 'win32',
  });
  let stderr = '';
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));

  const connection: MessageConnection = createMessageConnection(
    new StreamMessageReader(server.stdout),
    new StreamMessageWriter(server.stdin),
  );
  const published: PublishedDiagnostics[] = [];
  const progress: ProgressValue[] = [];
  const appliedEdits: WorkspaceEdit[] = [];
  const configurationRequests: unknown[] = [];
  const status = new StatusModel();
  const settings = defaultSettings();

  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/showDocument', () => ({ success: true }));
  connection.onRequest('window/showMessageRequest', () => null);
  connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => {
    configurationRequests.push(params);
    return params.items.map((item) => (item.section === 'inputmend' ? settings : null));
  });
  connection.onRequest('workspace/applyEdit', (params: { edit: WorkspaceEdit }) => {
    appliedEdits.push(params.edit);
    return { applied: true };
  });
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishedDiagnostics) => {
    published.push(params);
    status.setDiagnostics(params.uri, params.diagnostics.map(summary));
  });
  connection.onNotification('$/progress', (params: { token: string | number; value: ProgressValue }) => {
    progress.push(params.value);
    status.onProgress(String(params.token), params.value);
  });
  connection.onNotification('window/logMessage', () => undefined);
  connection.onNotification('window/showMessage', () => undefined);
  connection.listen();

  try {
    const initialized = (await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(scratch).toString(),
      workspaceFolders: [{ uri: pathToFileURL(scratch).toString(), name: 'scratch' }],
      initializationOptions: settings,
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        workspace: { configuration: true, applyEdit: true, workspaceEdit: { documentChanges: true } },
        window: { workDoneProgress: true, showDocument: { support: true } },
        textDocument: {
          synchronization: { didSave: true },
          publishDiagnostics: { versionSupport: true },
          codeAction: {
            codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } },
            isPreferredSupport: true,
          },
        },
      },
    })) as { capabilities: { codeActionProvider?: unknown; executeCommandProvider?: { commands: string[] } } };
    assert.ok(initialized.capabilities.codeActionProvider, 'code actions offered');
    for (const command of ['inputmend.applyRepair', 'inputmend.showRepairs', 'inputmend.explainFailure', 'inputmend.awaitAnalysis']) {
      assert.ok(initialized.capabilities.executeCommandProvider?.commands.includes(command), `${command} offered`);
    }
    await connection.sendNotification('initialized', {});
    status.setServer('running');

    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'json', version: 1, text: CORRUPT },
    });
    const first = await until(
      () => published.find((p) => p.uri === uri && p.version === 1 && p.diagnostics.some((d) => d.code === 'syntax')),
      'a syntax diagnostic',
      30_000,
    );
    const syntax = first.diagnostics.find((d) => d.code === 'syntax');
    assert.equal(syntax?.source, 'inputmend');
    const active = { uri, fileName: file, handled: true };
    // What a syntax diagnostic alone shows (the background work's progress may
    // already have begun: the server reads messages as they come, in batches).
    const diagnosed = new StatusModel();
    diagnosed.setServer('running');
    diagnosed.setDiagnostics(uri, first.diagnostics.map(summary));
    assert.match(diagnosed.view(active).text, /invalid/);

    // The workspace/configuration answer is asked for section `inputmend`.
    await until(() => (configurationRequests.length > 0 ? true : undefined), 'workspace/configuration', 10_000);

    // Ranked repairs arrive as quick fixes once the background analysis is done:
    // inputmend.awaitAnalysis answers then, and one codeAction request gets them.
    const requestActions = async (): Promise<CodeActionLike[]> =>
      ((await connection.sendRequest('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: CORRUPT.length } },
        context: { diagnostics: first.diagnostics, only: ['quickfix'] },
      })) as CodeActionLike[] | null) ?? [];
    const analysed = await connection.sendRequest('workspace/executeCommand', {
      command: 'inputmend.awaitAnalysis',
      arguments: [uri],
    });
    assert.equal(analysed, true, 'the background analysis ended');
    const actions = await requestActions();
    const choices = repairChoices(CORRUPT, uri, actions);
    const best = bestChoice(choices);
    assert.ok(best, 'a best repair');
    assert.equal(best.preferred, true, 'the best repair is preferred');
    assert.equal(best.rank, 1);
    assert.equal(best.version, 1, 'edits are versioned');
    assert.match(best.algorithm ?? '', /^(fsynth|ddmax[\w-]*)$/);
    assert.equal(best.action.title, best.label, 'the title is the summary');
    assert.equal(best.label, 'Insert missing `,` after `"Dave"`', 'in words, without the algorithm');
    assert.deepEqual(JSON.parse(best.repairedText), { name: 'Dave', age: 42 });
    assert.equal(
      choices.filter((choice) => choice.preferred).length,
      1,
      'exactly one preferred repair',
    );
    const fixes = (actions[0] as { diagnostics?: { code?: string }[] }).diagnostics ?? [];
    assert.deepEqual(fixes.map((d) => d.code), [syntax?.code], 'a repair names the diagnostic it fixes');

    // Work-done progress named the document, as the status bar expects.
    const begins = progress.filter((value): value is Extract<ProgressValue, { kind: 'begin' }> => value.kind === 'begin');
    assert.ok(begins.some((value) => value.title === 'inputmend: person.json'), 'progress titled with the file name');
    await until(() => (status.busy(file) ? undefined : true), 'the end of the progress', 30_000);

    // The server command applies a repair, named by its id for the version it
    // was offered for, through workspace/applyEdit; never for another version.
    assert.ok(best.id, 'a repair id');
    const stale = await connection.sendRequest('workspace/executeCommand', {
      command: 'inputmend.applyRepair',
      arguments: [uri, 2, best.id],
    });
    assert.equal(stale, false, 'no repair for a version the server does not have');
    assert.equal(appliedEdits.length, 0);
    const applied = await connection.sendRequest('workspace/executeCommand', {
      command: 'inputmend.applyRepair',
      arguments: [uri, 1, best.id],
    });
    assert.equal(applied, true);
    const edit = appliedEdits[0];
    assert.ok(edit, 'the server sent workspace/applyEdit');
    const repaired = applyTextEdits(CORRUPT, editsFor(edit, uri).edits);
    assert.deepEqual(JSON.parse(repaired), { name: 'Dave', age: 42 });

    // The client applies it and syncs: the document becomes valid.
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: repaired }],
    });
    await until(
      () => published.find((p) => p.uri === uri && p.version === 2 && p.diagnostics.length === 0),
      'no diagnostics for the repaired version',
      30_000,
    );
    assert.equal(status.view(active).text, '$(check) inputmend: valid');
    const none = await requestActions();
    assert.equal(repairChoices(repaired, uri, none).length, 0, 'no repairs for a valid document');

    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 15_000)));
    const code = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    assert.equal(code, 0, `server exit code (stderr: ${stderr.slice(-2000)})`);
  } catch (error) {
    if (stderr) t.diagnostic(`server stderr:\n${stderr.slice(-4000)}`);
    throw error;
  } finally {
    connection.dispose();
    if (server.exitCode === null && server.pid !== undefined) {
      try {
        if (process.platform === 'win32') server.kill();
        else process.kill(-server.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // Worker processes may hold the pipes open; do not let them keep the test alive.
    server.stdin.destroy();
    server.stdout.destroy();
    server.stderr.destroy();
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(neutral, { recursive: true, force: true });
  }
});
