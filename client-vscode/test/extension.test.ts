// Activation against a mocked `vscode` module: a missing Python or package must
// not crash the extension but tell the user how to fix it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { installVscodeMock, newState, withManifestDefaults } from './helpers/vscodeMock';
import manifest = require('../package.json');

const state = withManifestDefaults(installVscodeMock(newState()), manifest);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const extension = require('../src/extension') as typeof import('../src/extension');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'inputmend-ext-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function until(condition: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Activates, waits for the notice that says why the server is not running, and returns its message. */
async function activateWith(pythonPath: string): Promise<string> {
  state.notices.length = 0;
  state.settings.set('inputmend.server.pythonPath', { defaultValue: '', globalValue: pythonPath });
  const context = { subscriptions: [] as { dispose(): unknown }[], extensionUri: { fsPath: scratch } };
  await extension.activate(context as never);
  await until(() => state.notices.some((notice) => notice.message !== ''), 'a failure notice');
  const message = state.notices[0]?.message ?? '';
  await extension.deactivate();
  for (const disposable of context.subscriptions) disposable.dispose();
  return message.replace(/ \[.*$/, ''); // without the links after the message
}

describe('activation (mocked vscode)', () => {
  test('registers every contributed command', async () => {
    await activateWith(path.join(scratch, 'no-such-python'));
    const contributed = manifest.contributes.commands.map((command) => command.command).sort();
    assert.deepEqual([...state.commands.keys()].sort(), contributed);
  });

  test('a missing interpreter: an error naming the setting, and a failed status', async () => {
    const missing = path.join(scratch, 'no-such-python');
    const message = await activateWith(missing);
    assert.match(message, /cannot run the Python interpreter/);
    assert.ok(message.includes(missing));
    assert.match(message, /inputmend\.server\.pythonPath/);
    const item = state.statusItems[state.statusItems.length - 1];
    assert.equal(item?.text, '$(error) inputmend: not running');
    assert.equal(item?.visible, true);
  });

  test('inputmend not installed: an error with the pip command', { skip: process.platform === 'win32' }, async () => {
    const fake = path.join(scratch, 'python-without-inputmend');
    fs.writeFileSync(
      fake,
      '#!/bin/sh\necho "Traceback (most recent call last):" >&2\necho "ModuleNotFoundError: No module named \'inputmend\'" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    const message = await activateWith(fake);
    assert.equal(state.notices[0]?.closed, true, 'closed when the extension is deactivated');
    assert.equal(message, `inputmend is not installed for ${fake} (from the setting inputmend.server.pythonPath): run "${fake} -m pip install inputmend", or set inputmend.server.pythonPath to an interpreter that has it.`);
  });

  test('the interpreter check runs in the extension folder, never the workspace', { skip: process.platform === 'win32' }, async () => {
    const workspace = fs.mkdtempSync(path.join(scratch, 'workspace-'));
    const seen = path.join(scratch, 'probe-saw');
    const fake = path.join(scratch, 'python-that-reports');
    fs.writeFileSync(fake, `#!/bin/sh\npwd > '${seen}'\necho "$PYTHONSAFEPATH" >> '${seen}'\necho "No module named inputmend" >&2\nexit 1\n`, { mode: 0o755 });
    state.workspaceFolders = [{ uri: { fsPath: workspace, toString: () => `file://${workspace}` } }];
    try {
      await activateWith(fake);
    } finally {
      state.workspaceFolders = [];
    }
    assert.deepEqual(fs.readFileSync(seen, 'utf8').split('\n'), [fs.realpathSync(scratch), '1', '']);
  });

  test('untrusted: an interpreter inside the workspace is not run', { skip: process.platform === 'win32' }, async () => {
    const workspace = fs.mkdtempSync(path.join(scratch, 'untrusted-'));
    const marker = path.join(scratch, 'workspace-python-ran');
    const inside = path.join(workspace, 'python');
    fs.writeFileSync(inside, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
    state.trusted = false;
    state.workspaceFolders = [{ uri: { fsPath: workspace, toString: () => `file://${workspace}` } }];
    try {
      const message = await activateWith(inside);
      assert.match(message, /lies inside the untrusted folder/);
      assert.ok(!fs.existsSync(marker), 'the workspace interpreter ran');
    } finally {
      state.trusted = true;
      state.workspaceFolders = [];
    }
  });
});
