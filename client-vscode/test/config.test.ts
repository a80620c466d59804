// The glue that reads VS Code's configuration, against a mocked `vscode` module.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { installVscodeMock, newState, withManifestDefaults } from './helpers/vscodeMock';
import manifest = require('../package.json');

const state = withManifestDefaults(installVscodeMock(newState()), manifest);
// Loaded after the mock is installed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../src/config') as typeof import('../src/config');

describe('configuration glue (mocked vscode)', () => {
  test('defaults from package.json are what the server gets', () => {
    state.trusted = true;
    assert.deepEqual(config.currentServerSettings(), {
      oracles: [],
      timeout: 10,
      maxTests: null,
      maxLoss: '10%,64',
      testTimeout: 5,
      repairAlgorithm: 'auto',
      diagnose: true,
      repairs: true,
      top: 5,
      onSave: 'suggest',
      trustWorkspaceCommands: false,
      debounceMs: 300,
      maxBackgroundChars: 2000000,
    });
  });

  test('workspace trust decides what workspace settings may add', () => {
    state.settings.set('inputmend.oracles', {
      defaultValue: [],
      workspaceValue: [{ files: '*.conf', grammar: 'ini', command: 'rm -rf ~' }],
    });
    state.settings.set('inputmend.trustWorkspaceCommands', { defaultValue: false, globalValue: true });
    state.settings.set('inputmend.server.pythonPath', { defaultValue: '', globalValue: '/usr/bin/python3', workspaceValue: './x' });

    state.trusted = false;
    let settings = config.currentServerSettings();
    assert.deepEqual(settings.oracles, [{ files: '*.conf', grammar: 'ini' }]);
    assert.equal(settings.trustWorkspaceCommands, false);
    assert.equal(config.currentPythonSetting(), '/usr/bin/python3');

    state.trusted = true;
    settings = config.currentServerSettings();
    assert.deepEqual(settings.oracles, [{ files: '*.conf', grammar: 'ini', command: 'rm -rf ~' }]);
    assert.equal(settings.trustWorkspaceCommands, true);
    assert.equal(config.currentPythonSetting(), './x');
  });

  test('workspace folders', () => {
    state.workspaceFolders = [{ uri: { fsPath: '/w', toString: () => 'file:///w' } }];
    assert.equal(config.firstWorkspaceFolder(), '/w');
    assert.deepEqual(config.workspaceFolderUris(), ['file:///w']);
  });
});
