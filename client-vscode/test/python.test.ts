import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  classifyProbe,
  defaultPython,
  expandPath,
  folderContaining,
  interpreterFromExtension,
  launchOptions,
  probeArgs,
  problemMessage,
  PythonExtensionApi,
  resolvePython,
  serverArgs,
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
      const choice = await resolvePython({ configured, context, platform: 'linux', api: modernApi });
      assert.deepEqual(choice, { command: expected, source: 'setting' });
    }
  });

  test('else the interpreter selected in the Python extension', async () => {
    assert.deepEqual(await resolvePython({ configured: '', context, platform: 'linux', api: modernApi }), {
      command: '/w/project/.venv/bin/python',
      source: 'python-extension',
    });
    assert.deepEqual(await resolvePython({ configured: '', context, platform: 'linux', api: legacyApi }), {
      command: '/opt/py/bin/python3.12',
      source: 'python-extension',
    });
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

  test('else python3 (python on Windows), also when the Python extension fails', async () => {
    const broken: PythonExtensionApi = {
      environments: {
        getActiveEnvironmentPath: () => {
          throw new Error('not ready');
        },
        resolveEnvironment: async () => undefined,
      },
    };
    for (const api of [undefined, broken, {} as PythonExtensionApi]) {
      assert.deepEqual(await resolvePython({ configured: '', context, platform: 'linux', api }), {
        command: 'python3',
        source: 'default',
      });
    }
    assert.equal(defaultPython('win32'), 'python');
    assert.equal(expandPath('${workspaceFolder}/x', { workspaceFolder: undefined, home: '/h' }), '${workspaceFolder}/x');
  });

  test('the server command line: safe path, every argument our own', () => {
    assert.deepEqual(serverArgs(), ['-P', '-m', 'inputmend', 'lsp']);
    assert.deepEqual(probeArgs().slice(0, 1), ['-c']);
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
    assert.equal(untrustedInterpreterMessage({ command: 'python3', source: 'default' }, folders), undefined);
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
    const fallback = { command: 'python3', source: 'default' as const };
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
});
