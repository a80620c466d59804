// The failure notice against a mocked `vscode` module: it can be closed, so a
// restart that works leaves no stale "not installed" on screen.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { installVscodeMock, newState } from './helpers/vscodeMock';

const state = installVscodeMock(newState());
// eslint-disable-next-line @typescript-eslint/no-require-imports
const statusBar = require('../src/statusBar') as typeof import('../src/statusBar');

async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe('failure notice (mocked vscode)', () => {
  test('shows the message with its actions as command links', () => {
    assert.equal(
      statusBar.commandLink({ title: 'Open Settings', command: 'workbench.action.openSettings', args: ['inputmend.server.pythonPath'] }),
      '[Open Settings](command:workbench.action.openSettings?%5B%22inputmend.server.pythonPath%22%5D)',
    );
    assert.equal(statusBar.commandLink({ title: 'Show Log', command: 'inputmend.showServerLog' }), '[Show Log](command:inputmend.showServerLog)');
  });

  test('is closed by dismiss (a successful restart), replaced by a newer one, and cancellable', async () => {
    state.notices.length = 0;
    const notice = new statusBar.FailureNotice();
    notice.show('inputmend is not installed for python3', [{ title: 'Show Log', command: 'inputmend.showServerLog' }]);
    await settled();
    const [first] = state.notices;
    assert.equal(first?.title, '', 'the message names inputmend itself');
    assert.equal(first?.message, 'inputmend is not installed for python3 [Show Log](command:inputmend.showServerLog)');
    assert.equal(first?.closed, false);
    notice.show('cannot run the Python interpreter /x', []);
    await settled();
    assert.equal(first?.closed, true, 'a newer failure replaces the older notice');
    assert.equal(state.notices[1]?.closed, false);
    notice.dismiss();
    await settled();
    assert.equal(state.notices[1]?.closed, true, 'closed once the server runs');
    notice.show('again', []);
    await settled();
    state.notices[2]?.cancel();
    await settled();
    assert.equal(state.notices[2]?.closed, true, 'the user can dismiss it');
    notice.dispose();
  });
});
