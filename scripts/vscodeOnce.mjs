// The VS Code API, taken once for the whole extension bundle (see build-extension.mjs): every
// `import * as vscode from 'vscode'` in src/ resolves here.
export * from 'vscode';
