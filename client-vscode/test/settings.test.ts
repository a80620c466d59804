import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  configuredPythonPath,
  effective,
  filterOracles,
  Inspected,
  needsRestart,
  normaliseOracle,
  oracleGlobs,
  serverSettings,
} from '../src/settings';

function inspector(values: Record<string, Inspected>): (key: string) => Inspected | undefined {
  return (key) => values[key];
}

const externalOracles = [
  { files: '*.conf', grammar: 'ini', command: ['myparser', '--check', '{file}'] },
  { files: ['*.data'], python: 'validators.py:check' },
  { files: 'orders/*.json', grammar: 'json', incompleteExit: 3 },
];

describe('effective value', () => {
  test('folder beats workspace beats user beats default', () => {
    assert.deepEqual(effective({ defaultValue: 1 }), { value: 1, level: 'default' });
    assert.deepEqual(effective({ defaultValue: 1, globalValue: 2 }), { value: 2, level: 'user' });
    assert.deepEqual(effective({ defaultValue: 1, globalValue: 2, workspaceValue: 3 }), {
      value: 3,
      level: 'workspace',
    });
    assert.deepEqual(effective({ globalValue: 2, workspaceValue: 3, workspaceFolderValue: 4 }), {
      value: 4,
      level: 'workspaceFolder',
    });
    assert.deepEqual(effective(undefined), { value: undefined, level: 'default' });
  });
});

describe('server settings', () => {
  test('only the keys the server reads, with their effective values', () => {
    const settings = serverSettings(
      inspector({
        timeout: { defaultValue: 10, globalValue: 30 },
        maxTests: { defaultValue: null },
        repairAlgorithm: { defaultValue: 'auto', workspaceValue: 'ddmax-hybrid' },
        onSave: { defaultValue: 'suggest' },
        top: { defaultValue: 5 },
        'server.pythonPath': { defaultValue: '', globalValue: '/usr/bin/python3' },
        'trace.server': { defaultValue: 'off' },
      }),
      true,
    );
    assert.deepEqual(settings, {
      oracles: [],
      timeout: 30,
      maxTests: null,
      repairAlgorithm: 'ddmax-hybrid',
      onSave: 'suggest',
      top: 5,
      trustWorkspaceCommands: false,
    });
  });

  test('trusted workspace: workspace oracles keep their validators', () => {
    const settings = serverSettings(inspector({ oracles: { defaultValue: [], workspaceValue: externalOracles } }), true);
    assert.deepEqual(settings.oracles, externalOracles);
  });

  test('untrusted workspace: commands and python functions from workspace settings are removed', () => {
    const settings = serverSettings(inspector({ oracles: { defaultValue: [], workspaceValue: externalOracles } }), false);
    for (const oracle of settings.oracles) {
      assert.equal(oracle.command, undefined);
      assert.equal(oracle.python, undefined);
    }
    assert.deepEqual(settings.oracles, [
      { files: '*.conf', grammar: 'ini' },
      { files: 'orders/*.json', grammar: 'json' },
    ]);
  });

  test('untrusted workspace: folder-level oracles are filtered too', () => {
    const oracles = filterOracles({ value: externalOracles, level: 'workspaceFolder' }, false);
    assert.equal(oracles.some((o) => o.command !== undefined || o.python !== undefined), false);
  });

  test("untrusted workspace: the user's own oracles are kept", () => {
    const settings = serverSettings(inspector({ oracles: { defaultValue: [], globalValue: externalOracles } }), false);
    assert.deepEqual(settings.oracles, externalOracles);
  });

  test('trustWorkspaceCommands comes from user settings only', () => {
    const fromUser = inspector({ trustWorkspaceCommands: { defaultValue: false, globalValue: true } });
    assert.equal(serverSettings(fromUser, true).trustWorkspaceCommands, true);
    const fromWorkspace = inspector({ trustWorkspaceCommands: { defaultValue: false, workspaceValue: true } });
    assert.equal(serverSettings(fromWorkspace, true).trustWorkspaceCommands, false);
    const fromFolder = inspector({ trustWorkspaceCommands: { defaultValue: false, workspaceFolderValue: true } });
    assert.equal(serverSettings(fromFolder, true).trustWorkspaceCommands, false);
  });

  test('trustWorkspaceCommands is forced off in an untrusted workspace', () => {
    const fromUser = inspector({ trustWorkspaceCommands: { defaultValue: false, globalValue: true } });
    assert.equal(serverSettings(fromUser, false).trustWorkspaceCommands, false);
  });

  test('malformed oracle entries are dropped', () => {
    assert.equal(normaliseOracle({ grammar: 'json' }), undefined, 'no files');
    assert.equal(normaliseOracle({ files: [] , grammar: 'json'}), undefined, 'empty files');
    assert.equal(normaliseOracle({ files: '*.x' }), undefined, 'no oracle at all');
    assert.equal(normaliseOracle('*.json'), undefined);
    assert.equal(normaliseOracle({ files: [1, 2], grammar: 'json' }), undefined);
    assert.deepEqual(normaliseOracle({ files: '*.x', grammar: 'json', unknown: 1, testTimeout: 2 }), {
      files: '*.x',
      grammar: 'json',
      testTimeout: 2,
    });
    assert.deepEqual(filterOracles({ value: 'not a list', level: 'user' }, true), []);
  });
});

describe('python path setting', () => {
  test('user and workspace values when trusted', () => {
    assert.equal(configuredPythonPath({ defaultValue: '', globalValue: ' /usr/bin/python3 ' }, true), '/usr/bin/python3');
    assert.equal(
      configuredPythonPath({ defaultValue: '', globalValue: '/usr/bin/python3', workspaceValue: '.venv/bin/python' }, true),
      '.venv/bin/python',
    );
  });

  test('a workspace value is ignored in an untrusted workspace', () => {
    assert.equal(
      configuredPythonPath({ defaultValue: '', globalValue: '/usr/bin/python3', workspaceValue: './evil' }, false),
      '/usr/bin/python3',
    );
    assert.equal(configuredPythonPath({ defaultValue: '', workspaceFolderValue: './evil' }, false), '');
    assert.equal(configuredPythonPath(undefined, true), '');
  });
});

describe('restart decisions', () => {
  test('oracle globs are collected once each', () => {
    assert.deepEqual(oracleGlobs([{ files: '*.conf', grammar: 'ini' }, { files: ['*.conf', ' data/*.csv '], grammar: 'csv' }]), [
      '*.conf',
      'data/*.csv',
    ]);
  });

  test('a new interpreter or new globs need a restart, other changes do not', () => {
    const key = { python: 'python3', globs: ['*.conf'], folders: ['file:///w'] };
    assert.equal(needsRestart(undefined, key), true);
    assert.equal(needsRestart(key, { ...key }), false);
    assert.equal(needsRestart(key, { ...key, python: '/venv/bin/python' }), true);
    assert.equal(needsRestart(key, { ...key, globs: ['*.conf', '*.data'] }), true);
    assert.equal(needsRestart(key, { ...key, folders: [] }), true);
  });
});
