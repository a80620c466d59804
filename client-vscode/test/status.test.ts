import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ActiveDocument, COMMANDS, DiagnosticSummary, progressFile, StatusModel } from '../src/status';

const person: ActiveDocument = { uri: 'file:///w/person.json', fileName: '/w/person.json', handled: true };
const other: ActiveDocument = { uri: 'file:///w/notes.txt', fileName: '/w/notes.txt', handled: false };

function diagnostic(code: string, severity: DiagnosticSummary['severity'] = 'error', message = code): DiagnosticSummary {
  return { code, severity, message, source: 'inputmend' };
}

function running(): StatusModel {
  const model = new StatusModel();
  model.setServer('running');
  return model;
}

describe('status bar state machine', () => {
  test('server lifecycle: starting, stopped, failed', () => {
    const model = new StatusModel();
    assert.equal(model.view(person).text, '$(debug-disconnect) inputmend: stopped');
    assert.equal(model.view(person).command, COMMANDS.restart);
    model.setServer('starting');
    assert.equal(model.view(person).tone, 'busy');
    assert.match(model.view(person).text, /loading~spin/);
    model.setServer('failed', 'inputmend is not installed for python3');
    const failed = model.view(undefined);
    assert.equal(failed.visible, true, 'a failure is shown even without a document');
    assert.equal(failed.tone, 'error');
    assert.match(failed.tooltip, /not installed for python3/);
    assert.equal(failed.command, COMMANDS.restart);
  });

  test('hidden when no document, or one the server does not handle', () => {
    const model = running();
    assert.equal(model.view(undefined).visible, false);
    assert.equal(model.view(other).visible, false);
  });

  test('checking until the first diagnostics arrive, then valid', () => {
    const model = running();
    assert.match(model.view(person).text, /checking/);
    model.setDiagnostics(person.uri, []);
    const view = model.view(person);
    assert.equal(view.text, '$(check) inputmend: valid');
    assert.equal(view.tone, 'ok');
  });

  test('invalid with the number of problems; clicking shows the repairs', () => {
    const model = running();
    model.setDiagnostics(person.uri, [
      diagnostic('syntax', 'error', "unexpected '\"age\"'"),
      diagnostic('failure-inducing', 'info'),
    ]);
    assert.equal(model.view(person).text, '$(error) inputmend: invalid (1)', 'a failure-inducing region is no problem of its own');
    model.setDiagnostics(person.uri, [
      diagnostic('syntax', 'error', "unexpected '\"age\"'"),
      diagnostic('another-problem', 'error'),
      diagnostic('failure-inducing', 'info'),
    ]);
    const view = model.view(person);
    assert.equal(view.text, '$(error) inputmend: invalid (2)');
    assert.equal(view.tone, 'error');
    assert.equal(view.command, COMMANDS.chooseRepair);
    assert.match(view.tooltip, /person\.json: unexpected/);
  });

  test('repairing: work-done progress for the document, with message and percentage', () => {
    const model = running();
    model.setDiagnostics(person.uri, [diagnostic('syntax')]);
    model.onProgress('t1', { kind: 'begin', title: 'inputmend: person.json', message: 'finding failure-inducing spans' });
    let view = model.view(person);
    assert.equal(view.tone, 'busy');
    assert.equal(view.text, '$(sync~spin) inputmend: invalid (1) · finding failure-inducing spans');
    assert.match(view.tooltip, /invalid \(1 problem\)/);
    model.onProgress('t1', { kind: 'report', message: 'computing repairs', percentage: 42.4 });
    view = model.view(person);
    assert.equal(view.text, '$(sync~spin) inputmend: invalid (1) · computing repairs 42%');
    assert.equal(model.busy('/elsewhere/person.json'), true, 'progress titles carry only the file name');
    model.onProgress('t1', { kind: 'end' });
    view = model.view(person);
    assert.equal(view.text, '$(error) inputmend: invalid (1)');
  });

  test("another document's progress does not change this one", () => {
    const model = running();
    model.setDiagnostics(person.uri, []);
    model.onProgress('t2', { kind: 'begin', title: 'inputmend: order.json' });
    assert.equal(model.view(person).tone, 'ok');
    model.onProgress('unknown', { kind: 'report', message: 'x' });
    model.onProgress('unknown', { kind: 'end' });
    assert.equal(model.busy('order.json'), true);
  });

  test('notes: untrusted validator, configuration errors', () => {
    const model = running();
    model.setDiagnostics(person.uri, [diagnostic('untrusted-validator', 'info', 'the validator was not run')]);
    let view = model.view(person);
    assert.equal(view.tone, 'warning');
    assert.equal(view.text, '$(warning) inputmend: valid (validator not run)');
    model.setDiagnostics(person.uri, [diagnostic('configuration', 'info', 'unknown key')]);
    view = model.view(person);
    assert.equal(view.text, '$(warning) inputmend: configuration');
    assert.equal(view.tooltip, 'unknown key');
  });

  test('diagnostics of other sources are ignored; closing forgets the document', () => {
    const model = running();
    model.setDiagnostics(person.uri, [{ code: 'x', severity: 'error', message: 'from json', source: 'json' }]);
    assert.equal(model.view(person).tone, 'ok');
    model.forget(person.uri);
    assert.match(model.view(person).text, /checking/);
  });

  test('a restart clears diagnostics and progress', () => {
    const model = running();
    model.setDiagnostics(person.uri, [diagnostic('syntax')]);
    model.onProgress('t1', { kind: 'begin', title: 'inputmend: person.json' });
    model.setServer('starting');
    model.setServer('running');
    assert.equal(model.busy(person.fileName), false);
    assert.match(model.view(person).text, /checking/);
  });

  test('progress titles', () => {
    assert.equal(progressFile('inputmend: person.json'), 'person.json');
    assert.equal(progressFile('Indexing'), undefined);
  });
});
