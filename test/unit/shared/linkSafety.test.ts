import { strict as assert } from 'node:assert';
import { checkLink, splitLink } from '../../../src/shared/linkSafety';

const warns = (url: string, re: RegExp) => checkLink(url).warnings.some((w) => re.test(w));

describe('link safety: what a user is told before opening an agent’s link', () => {
  it('splits a link into scheme, user info, host, port and the rest', () => {
    assert.deepEqual(splitLink('HTTPS://me:pw@Example.COM:8443/a?b#c'), { scheme: 'https', userinfo: 'me:pw', host: 'example.com', port: '8443', rest: '/a?b#c' });
    assert.deepEqual(splitLink('https://[::1]:3000/x'), { scheme: 'https', host: '[::1]', port: '3000', rest: '/x' });
    assert.equal(splitLink('mailto:a@b.c'), undefined);
  });

  it('a plain https link opens without warnings', () => {
    assert.deepEqual(checkLink('https://github.com/login/device'), { parts: splitLink('https://github.com/login/device'), openable: true, warnings: [] });
  });

  it('warns of http except on localhost, and never opens a non-web scheme', () => {
    assert.ok(warns('http://example.com/', /Not encrypted/));
    assert.deepEqual(checkLink('http://localhost:8080/cb').warnings, []);
    assert.deepEqual(checkLink('http://127.0.0.1:8080/cb').warnings, []);
    for (const url of ['javascript:alert(1)', 'command:workbench.action.terminal.new', 'file:///etc/passwd', 'vscode://x/y', 'data:text/html,x']) {
      assert.equal(checkLink(url).openable, false, url);
    }
  });

  it('warns of punycode, mixed scripts, non-ASCII hosts, IP literals, user info and hidden characters', () => {
    assert.ok(warns('https://xn--pple-43d.com/', /punycode/));
    assert.ok(warns('https://аpple.com/', /mixes letters/), 'Cyrillic а with Latin');
    assert.ok(warns('https://bücher.de/', /non-ASCII/));
    assert.ok(warns('https://93.184.216.34/login', /IP address/));
    assert.ok(warns('https://[2001:db8::1]/', /IP address/));
    assert.ok(warns('https://github.com@evil.example/', /goes to evil\.example/));
    assert.ok(warns('https://example.com/\u202Egnp.exe', /hidden characters/));
    assert.equal(checkLink('https://xn--pple-43d.com/').openable, true, 'a warning does not forbid: the user decides');
  });
});
