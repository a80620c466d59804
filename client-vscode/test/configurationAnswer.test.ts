import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answerConfiguration } from '../src/configurationAnswer';

class Failure {
  constructor(readonly message: string) {}
}
const isFailure = (value: unknown): value is Failure => value instanceof Failure;

describe('workspace/configuration answer', () => {
  test('section inputmend gets the filtered settings, per scope', async () => {
    let delegated = 0;
    const answer = await answerConfiguration(
      [{ section: 'inputmend' }, { section: 'inputmend', scopeUri: 'file:///w/a' }],
      'inputmend',
      (scope) => ({ scope: scope ?? null, trustWorkspaceCommands: false }),
      async () => {
        delegated += 1;
        return [];
      },
      isFailure,
    );
    assert.deepEqual(answer, [
      { scope: null, trustWorkspaceCommands: false },
      { scope: 'file:///w/a', trustWorkspaceCommands: false },
    ]);
    assert.equal(delegated, 0, 'the default handler is not asked');
  });

  test('other sections are answered by the default handler, in order', async () => {
    const answer = await answerConfiguration(
      [{ section: 'editor' }, { section: 'inputmend' }, {}],
      'inputmend',
      () => 'ours',
      async () => ['editor settings', 'unfiltered inputmend settings', 'everything'],
      isFailure,
    );
    assert.deepEqual(answer, ['editor settings', 'ours', 'everything']);
  });

  test('an error of the default handler is passed on', async () => {
    const failure = new Failure('no');
    assert.equal(await answerConfiguration([{ section: 'x' }], 'inputmend', () => 'ours', async () => failure, isFailure), failure);
  });
});
