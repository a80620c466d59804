// package.json must mirror the server's configuration and declare the trust rules.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SERVER_KEYS } from '../src/settings';
import manifest = require('../package.json');

interface Schema {
  type?: string | string[];
  default?: unknown;
  scope?: string;
  description?: string;
  markdownDescription?: string;
  enum?: string[];
}

const properties = manifest.contributes.configuration.properties as Record<string, Schema>;

describe('extension manifest', () => {
  test('every server setting is contributed, with a description', () => {
    for (const key of [...SERVER_KEYS, 'oracles', 'server.pythonPath']) {
      const schema = properties[`inputmend.${key}`];
      assert.ok(schema, `inputmend.${key} is contributed`);
      assert.ok((schema.description ?? schema.markdownDescription ?? '').length > 20, `inputmend.${key} is described`);
    }
  });

  test('enumerations match the server', () => {
    assert.deepEqual(properties['inputmend.repairAlgorithm']?.enum, ['auto', 'fsynth', 'ddmax', 'ddmax-syntactic', 'ddmax-hybrid', 'ddmax-lines']);
    assert.deepEqual(properties['inputmend.onSave']?.enum, ['off', 'suggest']);
  });

  test('a workspace cannot enable workspace commands', () => {
    assert.ok(['application', 'machine'].includes(properties['inputmend.trustWorkspaceCommands']?.scope ?? ''));
    assert.equal(properties['inputmend.trustWorkspaceCommands']?.default, false);
  });

  test('the interpreter applies from User, Remote and workspace settings', () => {
    // `machine-overridable` values in User settings are dropped in remote windows
    // (Remote-SSH, WSL, code-server): the server would restart with `python3`.
    assert.equal(properties['inputmend.server.pythonPath']?.scope, 'window');
    assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('inputmend.server.pythonPath'));
  });

  test('limited support in untrusted workspaces, with a description', () => {
    const untrusted = manifest.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    assert.ok(untrusted.description.length > 20);
    assert.ok(untrusted.restrictedConfigurations.includes('inputmend.oracles'));
  });

  test('entry point, engine and scripts', () => {
    assert.equal(manifest.main, './out/extension.js');
    assert.equal(manifest.engines.vscode, '^1.82.0');
    assert.match(manifest.scripts.package, /vsce package --no-dependencies/);
    assert.match(manifest.scripts.build, /--outfile=out\/extension\.js/);
    for (const command of manifest.contributes.commands) {
      assert.equal(command.category, 'inputmend');
      assert.ok(!['inputmend.applyRepair', 'inputmend.showRepairs', 'inputmend.explainFailure'].includes(command.command),
        'server command ids are registered by the language client');
    }
  });
});
