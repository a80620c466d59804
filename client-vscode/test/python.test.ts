import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  classifyProbe,
  expandPath,
  folderContaining,
  interpreterFromExtension,
  launchOptions,
  noPythonMessage,
  pathPythons,
  problemMessage,
  PythonExtensionApi,
  pythonCandidates,
  serverLaunch,
  untrustedInterpreterMessage,
} from '../src/python';

const context = { workspaceFolder: '/w/project', home: '/home/ada' };

const modernApi: PythonExtensionApi = {
  environments: {
    getActiveEnvironmentPath: () => ({ id: 'venv', path: '/w/project/.venv' }),
    resolveEnvironment: async () => ({ executable: { uri: { fsPath: '/w/project/.venv/bin/python' } } }),
  },
};

const legacyApi: PythonExtensionApi = {
  settings: { getExecutionDetails: () => ({ execCommand: ['/opt/py/bin/python3.12'] }) },
};

describe('python path resolution', () => {
  test('the setting wins, with ${workspaceFolder}, ${userHome} and ~ expanded', async () => {
    for (const [configured, expected] of [
      ['${workspaceFolder}/.venv/bin/python', '/w/project/.venv/bin/python'],
      ['~/venvs/im/bin/python', '/home/ada/venvs/im/bin/python'],
      ['${userHome}/py', '/home/ada/py'],
      [' /usr/bin/python3.11 ', '/usr/bin/python3.11'],
      ['.venv/bin/python', '/w/project/.venv/bin/python'],
      ['python3.12', 'python3.12'],
    ] as const) {
      const choices = await pythonCandidates({ configured, context, platform: 'linux', api: modernApi });
      assert.deepEqual(choices, [{ command: expected, source: 'setting' }], 'a configured one is the only one tried');
    }
  });

  test('else the interpreter selected in the Python extension, then the Pythons on PATH', async () => {
    const modern = await pythonCandidates({ configured: '', context, platform: 'linux', api: modernApi });
    assert.deepEqual(modern[0], { command: '/w/project/.venv/bin/python', source: 'python-extension' });
    assert.deepEqual(
      modern.slice(1),
      pathPythons('linux').map((command) => ({ command, source: 'path' })),
    );
    const legacy = await pythonCandidates({ configured: '', context, platform: 'linux', api: legacyApi });
    assert.deepEqual(legacy[0], { command: '/opt/py/bin/python3.12', source: 'python-extension' });
  });

  test('an unresolved environment falls back to its path', async () => {
    const api: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => ({ id: 'x', path: '/usr/bin/python3.13' }),
        resolveEnvironment: async () => undefined,
      },
    };
    assert.equal(await interpreterFromExtension(api), '/usr/bin/python3.13');
  });

  test('else python3 and the newest Pythons (python on Windows), also when the Python extension fails', async () => {
    const broken: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => {
          throw new Error('not ready');
        },
        resolveEnvironment: async () => undefined,
      },
    };
    for (const api of [undefined, broken, {} as PythonExtensionApi]) {
      const choices = await pythonCandidates({ configured: '', context, platform: 'linux', api });
      assert.deepEqual(choices.map((choice) => choice.command), ['python3', 'python3.14', 'python3.13', 'python3.12', 'python3.11', 'python']);
      assert.ok(choices.every((choice) => choice.source === 'path'));
    }
    assert.equal(pathPythons('win32')[0], 'python');
    assert.equal(expandPath('${workspaceFolder}/x', { workspaceFolder: undefined, home: '/h' }), '${workspaceFolder}/x');
  });

  test('the server command line: the bundled server when the extension carries one, safe path, every argument our own', () => {
    const bundled = serverLaunch('/ext/bundled/tool/server.py');
    assert.deepEqual(bundled, {
      probe: ['/ext/bundled/tool/server.py', '--probe'],
      server: ['-P', '/ext/bundled/tool/server.py', 'lsp'],
      bundled: true,
    });
    const own = serverLaunch(undefined);
    assert.deepEqual(own.server, ['-P', '-m', 'inputmend', 'lsp']);
    assert.deepEqual(own.probe.slice(0, 1), ['-c']);
    assert.equal(own.bundled, false);
  });

  test('probe and server run in the neutral folder, never the workspace', () => {
    const env = { PATH: '/bin', PYTHONPATH: ':/x' };
    assert.deepEqual(launchOptions('/ext', env, 'probe'), { cwd: '/ext', env: { ...env, PYTHONSAFEPATH: '1' } });
    const server = launchOptions('/ext', env, 'server');
    assert.equal(server.cwd, '/ext');
    assert.equal(server.env.PYTHONSAFEPATH, undefined, "validators keep their own sys.path");
    assert.equal(server.env.PYTHONPATH, ':/x');
  });
});

describe('untrusted workspaces', () => {
  const folders = ['/w/project', '/w/other'];

  test('an interpreter inside a workspace folder is found', () => {
    assert.equal(folderContaining('/w/project/.venv/bin/python', folders), '/w/project');
    assert.equal(folderContaining('/w/other/py', folders), '/w/other');
    assert.equal(folderContaining('/w/project/..venv/python', folders), '/w/project');
    for (const outside of ['/w/project-2/bin/python', '/usr/bin/python3', 'python3', '/w/project', '/w/x/../y']) {
      assert.equal(folderContaining(outside, folders), undefined, outside);
    }
  });

  test('is refused with a message that says what to do', () => {
    const inside = { command: '/w/project/.venv/bin/python', source: 'python-extension' as const };
    const message = untrustedInterpreterMessage(inside, folders) ?? '';
    assert.match(message, /inside the untrusted folder \/w\/project/);
    assert.match(message, /Trust the workspace/);
    assert.equal(untrustedInterpreterMessage({ command: 'python3', source: 'path' }, folders), undefined);
  });
});

describe('interpreter checks', () => {
  test('outcomes of the probe', () => {
    assert.deepEqual(classifyProbe({ exitCode: 0, stdout: '0.1.0\n', stderr: '' }), { kind: 'ok', version: '0.1.0' });
    assert.equal(classifyProbe({ spawnError: 'ENOENT', exitCode: null, stdout: '', stderr: '' }).kind, 'not-found');
    assert.equal(
      classifyProbe({ exitCode: 1, stdout: '', stderr: "Traceback...\nModuleNotFoundError: No module named 'inputmend'\n" }).kind,
      'not-installed',
    );
    assert.equal(classifyProbe({ exitCode: 3, stdout: '', stderr: 'inputmend needs Python >= 3.11, this is 3.8' }).kind, 'too-old');
    assert.deepEqual(classifyProbe({ exitCode: 1, stdout: '', stderr: 'Traceback\nImportError: cannot import lark' }), {
      kind: 'error',
      detail: 'ImportError: cannot import lark',
    });
    assert.deepEqual(classifyProbe({ exitCode: null, stdout: '', stderr: '' }), { kind: 'error', detail: 'exit code null' });
  });

  test('messages say what is wrong and how to fix it', () => {
    const configured = { command: '/opt/py/bin/python', source: 'setting' as const };
    const fallback = { command: 'python3', source: 'path' as const };
    assert.equal(problemMessage(configured, { kind: 'ok', version: '0.1.0' }), undefined);

    const missing = problemMessage(configured, { kind: 'not-installed', detail: 'No module named inputmend' });
    assert.match(missing ?? '', /inputmend is not installed for \/opt\/py\/bin\/python/);
    assert.match(missing ?? '', /pip install inputmend/);
    assert.match(missing ?? '', /inputmend\.server\.pythonPath/);

    const notFound = problemMessage(fallback, { kind: 'not-found', error: 'ENOENT' });
    assert.match(notFound ?? '', /cannot run the Python interpreter "python3"/);
    assert.match(notFound ?? '', /set inputmend\.server\.pythonPath/);

    assert.match(problemMessage(fallback, { kind: 'too-old', detail: 'inputmend needs Python >= 3.11, this is 3.8' }) ?? '', /3\.11/);
    assert.match(problemMessage(fallback, { kind: 'error', detail: 'boom' }) ?? '', /boom/);
  });

  test('when no Python runs the server: the configured one\'s problem, or each one tried', () => {
    const configured = { command: '/opt/py/bin/python', source: 'setting' as const };
    assert.match(noPythonMessage([{ choice: configured, probe: { kind: 'not-found', error: 'ENOENT' } }]), /cannot run the Python interpreter "\/opt\/py\/bin\/python"/);
    const message = noPythonMessage([
      { choice: { command: '/usr/bin/python3.9', source: 'python-extension' }, probe: { kind: 'too-old', detail: 'inputmend needs Python >= 3.11, this is 3.9' } },
      { choice: { command: 'python3', source: 'path' }, probe: { kind: 'too-old', detail: 'inputmend needs Python >= 3.11, this is 3.10' } },
      { choice: { command: 'python3.14', source: 'path' }, probe: { kind: 'not-found', error: 'ENOENT' } },
    ]);
    assert.match(message, /no Python 3\.11 or newer found/);
    assert.match(message, /tried \/usr\/bin\/python3\.9, python3, python3\.14/);
    assert.match(message, /python3: inputmend needs Python >= 3\.11, this is 3\.10/);
    assert.doesNotMatch(message, /python3\.14:/, 'a name not found is listed, not explained');
    assert.match(message, /set inputmend\.server\.pythonPath/);
  });
});
