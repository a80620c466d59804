import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  actionData,
  applyTextEdits,
  bestChoice,
  CodeActionLike,
  diffTitle,
  editsFor,
  explainOffered,
  isSaveSuggestion,
  lineStarts,
  offsetAt,
  previewPath,
  repairChoices,
  suggestedDocument,
  summarise,
  TextEdit,
} from '../src/repairs';

const uri = 'file:///w/person.json';
const corrupt = '{ "name": "Dave" "age": 42 }';

function edit(line: number, start: number, endLine: number, end: number, newText: string): TextEdit {
  return { range: { start: { line, character: start }, end: { line: endLine, character: end } }, newText };
}

/** Code actions as the server sends them (versioned document changes, `data`). */
const actions: CodeActionLike[] = [
  {
    title: 'Insert `,` at 1:17 (fsynth)',
    kind: 'quickfix',
    isPreferred: true,
    edit: { documentChanges: [{ textDocument: { uri, version: 3 }, edits: [edit(0, 16, 0, 16, ',')] }] },
    data: {
      kind: 'repair',
      id: '5e1f0c2a',
      rank: 1,
      preferred: true,
      algorithm: 'fsynth',
      version: 3,
      summary: 'Insert `,` at 1:17',
      edits: 1,
      data_lost: 0,
    },
  },
  {
    title: 'Apply repair 2 (2 edits) (ddmax-hybrid)',
    kind: 'quickfix',
    edit: {
      documentChanges: [
        { textDocument: { uri, version: 3 }, edits: [edit(0, 16, 0, 16, ','), edit(0, 24, 0, 26, '43')] },
      ],
    },
    data: {
      kind: 'repair',
      id: '0b9d44e7',
      rank: 2,
      preferred: false,
      algorithm: 'ddmax-hybrid',
      version: 3,
      summary: 'Apply repair 2 (2 edits)',
      edits: 2,
      data_lost: 2,
    },
  },
  {
    title: 'Remove all failure-inducing spans (ddmax)',
    kind: 'quickfix',
    edit: { changes: { [uri]: [edit(0, 17, 0, 27, '')] } },
    data: { kind: 'remove-spans', algorithm: 'ddmax', version: 3, summary: 'Remove all failure-inducing spans' },
  },
  {
    title: 'Explain failure (DDSET)',
    kind: 'quickfix',
    command: { title: 'Explain failure (DDSET)', command: 'inputmend.explainFailure', arguments: [uri] },
    data: { kind: 'explain', version: 3 },
  },
];

describe('text edits', () => {
  test('line starts for \\n, \\r\\n and \\r', () => {
    assert.deepEqual(lineStarts('a\nb\r\nc\rd'), [0, 2, 5, 7]);
    assert.deepEqual(lineStarts(''), [0]);
  });

  test('positions past the end of a line or the text are clamped', () => {
    const text = 'ab\r\ncd';
    const starts = lineStarts(text);
    assert.equal(offsetAt(text, starts, { line: 0, character: 99 }), 2);
    assert.equal(offsetAt(text, starts, { line: 1, character: 1 }), 5);
    assert.equal(offsetAt(text, starts, { line: 9, character: 0 }), text.length);
  });

  test('edits apply against the original text, in any order', () => {
    const edits = [edit(0, 24, 0, 26, '43'), edit(0, 16, 0, 16, ',')];
    assert.equal(applyTextEdits(corrupt, edits), '{ "name": "Dave", "age": 43 }');
  });

  test('several lines, deletions across line breaks', () => {
    const text = '[1,\n2,,\n3]';
    assert.equal(applyTextEdits(text, [edit(1, 2, 1, 3, '')]), '[1,\n2,\n3]');
    assert.equal(applyTextEdits(text, [edit(0, 3, 2, 0, '')]), '[1,3]');
  });

  test('columns count UTF-16 code units (the LSP default)', () => {
    const text = '{"e": "😀" "x": 1}';
    // 😀 is two UTF-16 units: the gap between the two members is at unit 10.
    assert.equal(applyTextEdits(text, [edit(0, 10, 0, 10, ',')]), '{"e": "😀", "x": 1}');
  });

  test('insertions at the same place keep their order; overlaps are rejected', () => {
    assert.equal(applyTextEdits('ac', [edit(0, 1, 0, 1, 'b'), edit(0, 1, 0, 1, 'B')]), 'abBc');
    assert.throws(() => applyTextEdits('abcdef', [edit(0, 1, 0, 4, ''), edit(0, 2, 0, 5, '')]), /overlapping/);
  });

  test('edits for one document from either form of workspace edit', () => {
    assert.deepEqual(editsFor(actions[0]?.edit, uri), { edits: [edit(0, 16, 0, 16, ',')], version: 3 });
    assert.deepEqual(editsFor(actions[2]?.edit, uri), { edits: [edit(0, 17, 0, 27, '')], version: undefined });
    assert.deepEqual(editsFor(actions[0]?.edit, 'file:///other'), { edits: [], version: undefined });
    assert.deepEqual(editsFor(undefined, uri), { edits: [], version: undefined });
  });
});

describe('ranked repairs', () => {
  test('what a repair is comes from data, never from the title', () => {
    const second = actions[1] as CodeActionLike;
    assert.deepEqual(actionData(second), { ...(second.data as object), final: false }, 'data is read as sent');
    assert.equal(actionData({ title: 'Insert `,` at 1:18 (fsynth)' }), undefined);
    assert.equal(actionData({ title: 'x', data: { rank: 1 } }), undefined, 'data without a kind');
    const retitled = { ...actions[0], title: 'Something else entirely' } as CodeActionLike;
    const [choice] = repairChoices(corrupt, uri, [retitled]);
    assert.equal(choice?.label, 'Insert `,` at 1:17');
    assert.equal(choice?.algorithm, 'fsynth');
    assert.equal(choice?.preferred, true);
  });

  test('without data: the title is the label, nothing is preferred, the edit gives the version', () => {
    const bare = actions.slice(0, 2).map(({ data: _, ...rest }) => rest as CodeActionLike);
    const [first, second] = repairChoices(corrupt, uri, bare);
    assert.equal(first?.label, 'Insert `,` at 1:17 (fsynth)');
    assert.equal(first?.algorithm, undefined);
    assert.equal(first?.preferred, false, 'isPreferred alone is not read');
    assert.equal(first?.version, 3);
    assert.equal(first?.id, undefined, 'no id without data');
    assert.equal(second?.rank, 2);
  });

  test('quick pick entries: ranked, best marked, repaired text for the diff preview', () => {
    const choices = repairChoices(corrupt, uri, actions);
    assert.equal(choices.length, 3, 'the DDSET action has no edit and is not a repair');
    const [first, second, third] = choices;
    assert.ok(first && second && third);
    assert.equal(first.label, 'Insert `,` at 1:17');
    assert.equal(first.description, 'best · fsynth');
    assert.equal(first.preferred, true);
    assert.equal(first.version, 3);
    assert.equal(first.id, '5e1f0c2a', 'the id applyRepair takes');
    assert.equal(third.id, undefined, 'removing the spans is not a ranked repair');
    assert.equal(first.repairedText, '{ "name": "Dave", "age": 42 }');
    assert.deepEqual(JSON.parse(first.repairedText), { name: 'Dave', age: 42 });
    assert.equal(first.detail, '1 edit · −0 +1 characters · line 1: { "name": "Dave", "age": 42 }');
    assert.equal(second.description, '#2 · ddmax-hybrid');
    assert.equal(second.repairedText, '{ "name": "Dave", "age": 43 }');
    assert.equal(third.label, 'Remove all failure-inducing spans');
    assert.equal(third.repairedText, '{ "name": "Dave" }');
    assert.equal(bestChoice(choices), first);
  });

  test('without a preferred repair the first is best; no repairs, no choice', () => {
    const plain = repairChoices(corrupt, uri, actions.slice(1, 3));
    assert.equal(bestChoice(plain), plain[0]);
    assert.equal(plain[0]?.rank, 2, 'the rank the server gave');
    assert.equal(bestChoice(repairChoices(corrupt, uri, [])), undefined);
  });

  test('non-quickfix actions and actions for other documents are skipped', () => {
    const refactor: CodeActionLike = { ...actions[0], title: 'x', kind: 'refactor.rewrite' } as CodeActionLike;
    assert.equal(repairChoices(corrupt, uri, [refactor]).length, 0);
    assert.equal(repairChoices(corrupt, 'file:///other.json', actions).length, 0);
  });

  test('the DDSET action is recognised', () => {
    assert.equal(explainOffered(actions), true);
    assert.equal(explainOffered(actions.slice(0, 3)), false);
    assert.equal(explainOffered([{ title: 'Explain', command: 'inputmend.explainFailure' }]), true);
  });

  test('summaries count removed and inserted characters', () => {
    const edits = [edit(0, 24, 0, 26, '43'), edit(0, 16, 0, 16, ',')];
    const repaired = applyTextEdits(corrupt, edits);
    assert.equal(summarise(corrupt, edits, repaired), '2 edits · −2 +3 characters · line 1: { "name": "Dave", "age": 43 }');
  });

  test('preview documents keep the file name and differ per repair', () => {
    const a = previewPath('/w/data/person.json', 1, '3-1');
    const b = previewPath('/w/data/person.json', 2, '3-2');
    assert.equal(a.path, '/repair-1/person.json');
    assert.notEqual(a.query, b.query);
    const choice = repairChoices(corrupt, uri, actions)[0];
    assert.ok(choice);
    assert.equal(diffTitle('/w/data/person.json', choice), 'person.json ↔ repair 1: Insert `,` at 1:17');
  });

  test('data says whether the ranked list is final', () => {
    assert.equal(actionData({ title: 'x', data: { kind: 'repair', final: true } })?.final, true);
    assert.equal(actionData({ title: 'x', data: { kind: 'repair' } })?.final, false);
  });

  test("the server's suggestion on save, and the document it is about", () => {
    const suggestion = {
      message: 'person.json is invalid. Best repair: Insert missing `,` after `"Dave"`.',
      actions: [{ title: 'Apply repair' }, { title: 'Show all repairs' }],
    };
    assert.equal(isSaveSuggestion(suggestion), true);
    assert.equal(isSaveSuggestion({ message: 'x', actions: [{ title: 'Show all repairs' }] }), false);
    assert.equal(isSaveSuggestion({ message: 'x', actions: null }), false);
    const documents = [{ fileName: '/w/order.json' }, { fileName: '/w/a/person.json' }, { fileName: '/w/b/person.json' }];
    assert.equal(suggestedDocument(suggestion.message, documents), documents[1], 'the first candidate with the name');
    assert.equal(suggestedDocument(suggestion.message, documents.slice(0, 1)), undefined);
    assert.equal(suggestedDocument('other.json is invalid.', [{ fileName: 'C:\\w\\other.json' }])?.fileName, 'C:\\w\\other.json');
  });
});
