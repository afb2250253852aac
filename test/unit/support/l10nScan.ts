import ts from 'typescript';

/**
 * Finds text a person reads that is written into the code instead of going through the translator: string and
 * template literals with letters in a user-facing position (a notification and its buttons, a quick pick item's
 * label/description/detail, a `title`/`tooltip`/`placeholder`/`prompt`, a diff editor's title, a tree item, an
 * element's text or its aria-label/title/placeholder, the children of the webview's `h()`), not inside
 * `l10n.t(...)` / `vscode.l10n.t(...)`. Also a comparison of a literal with a translated button's English text (the
 * choice comes back translated). Used by the unit test that keeps the code clean and by `test/tools/l10n-wrap.mjs`,
 * which rewrites what it finds into translator calls.
 */

export interface Finding {
  readonly file: string;
  readonly line: number;
  /** The literal as written in the source. */
  readonly source: string;
  /** What made the position user-facing. */
  readonly sink: string;
  readonly node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression;
}

type TextLiteral = Finding['node'];

/** Literals in user-facing positions that are deliberately not translated, each with why (file relative to the repo, the literal's text). */
export const NOT_TRANSLATED: ReadonlyArray<{ readonly file: string; readonly text: string; readonly why: string }> = [
  { file: 'webview/render/compaction.ts', text: 'md compaction-body', why: 'a class list' },
  { file: 'webview/render/entries.ts', text: 'md thought-body', why: 'a class list' },
  { file: 'webview/render/gate.ts', text: 'secondary small', why: 'a class list' },
  { file: 'webview/render/plan.ts', text: 'loading codicon-modifier-spin', why: 'a class list' },
  { file: 'webview/render/toolIcons.ts', text: 'loading codicon-modifier-spin', why: 'a class list' },
  ...['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Cherokee', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Arabic', 'Hebrew', 'Thai', 'Devanagari'].map((text) => ({ file: 'src/shared/linkSafety.ts', text, why: 'a Unicode script name for a \\p{Script=…} pattern' })),
  { file: 'src/shared/elicitationSchema.ts', text: 'requestedSchema is not an object schema with properties: {0}', why: 'answered to the agent as the reason its request was refused (invalid params)' },
  { file: 'src/edits/reviewActions.ts', text: 'Refused path {0}: it is now a symbolic link.', why: 'the reason a refused write is answered to the agent with' },
  { file: 'src/agents/managedSession.ts', text: 'session {0}', why: 'the name of the session\'s disposal scope, for leak reports' },
  { file: 'src/panel/promptBlocks.ts', text: 'problems', why: 'the @-mention keyword the user types (`@problems`), like a command name' },
  { file: 'src/agents/agentLauncher.ts', text: 'Howdah', why: 'the client name sent to the agent in `initialize` (clientInfo), not shown in VS Code' },
  { file: 'src/acp/errors.ts', text: 'Message of at least {0} bytes exceeds the {1}-byte limit and was dropped', why: 'a framing error of the protocol layer: written to the log and answered to the agent, not shown' },
  { file: 'src/session/lifecycle.ts', text: 'A session cannot go from {0} to {1}', why: 'a programming error (an impossible state transition), never a user-facing message' },
  { file: 'src/workspace/safeFs.ts', text: 'the file is {0} bytes, over the {1}-byte limit', why: 'answered to the agent as the reason its fs request failed' },
  { file: 'src/workspace/textCodec.ts', text: 'Writing {0} is not supported here', why: 'answered to the agent as the reason its write failed' },
  { file: 'src/agents/agentStarter.ts', text: 'connection {0}', why: 'the name of the connection\'s disposal scope, for leak reports' },
  ...['File', 'Directory', 'Link'].map((text) => ({ file: 'src/agents/registry/archive.ts', text, why: 'a tar entry type (the archive reader\'s value)' })),
  { file: 'src/edits/turnSnapshots.ts', text: '{0} read, {1} KB stored, {2} ms', why: 'the snapshot\'s statistics, only in the Edits log' },
  { file: 'src/panel/promptBlocks.ts', text: 'terminal', why: 'the @-mention keyword the user types (`@terminal`), like a command name' },
  {
    file: 'webview/markdown/streamingMarkdown.ts',
    text: '# Title\n\nSome **bold**, *emphasis*, `code` and a [link](https://example.com/) in a paragraph: https://example.com/\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n```ts\nconst x = 1;\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n',
    why: 'the Markdown the renderer warms up on, rendered unseen and dropped',
  },
];

const allowed = (file: string, text: string) => NOT_TRANSLATED.some((a) => file.replace(/\\/g, '/').endsWith(a.file) && a.text === text);

const NOTIFY = new Set(['showInformationMessage', 'showWarningMessage', 'showErrorMessage']);
/** Object-literal properties whose value is shown (QuickPickItem, InputBoxOptions, CodeLens/Command, progress, h() attributes). */
const SHOWN_PROPERTIES = new Set(['openLabel', 'label', 'description', 'detail', 'title', 'tooltip', 'placeHolder', 'placeholder', 'prompt', 'validationMessage', 'aria-label', 'ariaLabel', 'alt', 'aria-description', 'aria-roledescription', 'aria-valuetext']);
/** Assignments `x.name = '…'` that put text on screen (elements, status bar items, quick picks, tree views). */
const SHOWN_ASSIGNMENTS = new Set(['textContent', 'innerText', 'title', 'tooltip', 'placeholder', 'placeHolder', 'label', 'description', 'detail', 'prompt', 'text', 'ariaLabel', 'validationMessage', 'message']);
const SHOWN_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'aria-description', 'aria-roledescription', 'aria-valuetext']);
/** The host's own helpers whose first argument is a message shown to the user (an error notification, an Undo offer). */
const MESSAGE_HELPERS = new Set(['fail', 'offerUndo']);
/** Functions whose result is shown to the user as it is (a form field's error, why an agent did not start). */
const USER_TEXT_FUNCTIONS = new Set(['fieldError', 'describeStartFailure', 'toStartFailure', 'howItEnded', 'describeCounts', 'whereFound', 'diskProblem', 'networkReason', 'whyUnrecorded', 'formatBytes']);
/**
 * In the page, a literal that reads like prose (a capitalised word, or two words) is text for a person wherever it
 * stands, except in these calls (selectors, class names, events, developer messages)…
 */
const PAGE_NON_TEXT_CALLS = new Set(['querySelector', 'querySelectorAll', 'closest', 'matches', 'addEventListener', 'removeEventListener', 'add', 'remove', 'toggle', 'contains', 'getElementById', 'createElement', 'icon', 'error', 'warn', 'log', 'debug', 'Error', 'TypeError', 'RegExp', 'getAttribute', 'hasAttribute', 'removeAttribute', 'startsWith', 'endsWith', 'includes', 'split', 'replace', 'join', 'has', 'get', 'set', 'delete', 'postMessage', 'post', 'dispatchEvent', 'Event', 'CustomEvent', 'KeyboardEvent']);
/** …and these properties (markup, not text). */
const PAGE_NON_TEXT_PROPERTIES = new Set(['class', 'className', 'type', 'role', 'id', 'key', 'kind', 'status', 'op', 'href', 'rel', 'name', 'value', 'for', 'action', 'mode', 'tabindex', 'autocomplete', 'inputmode', 'lang', 'dir', 'method', 'target', 'mimeType', 'uri', 'severity', 'choice']);
const PROSE = /(^|[^\p{L}])\p{Lu}\p{Ll}+($|[^\p{L}])|\p{L}\s+\p{L}|\{\d+\}\s+\p{L}|\p{L}\s+\{\d+\}/u;

/**
 * Host files whose prose is all for the user (dialogs built from pieces, banners, notices, titles): checked like the
 * page. Elsewhere on the host, prose is often for the agent (tool errors it reads and acts on) or for the log, and
 * must stay English, so only the user-facing positions above are checked there.
 */
const HOST_PROSE_FILES = [
  'src/panel/chatIntents.ts', 'src/panel/gateView.ts', 'src/panel/linkOpener.ts', 'src/panel/permissionAlerts.ts', 'src/panel/toolDiff.ts', 'src/panel/chatCommands.ts', 'src/panel/editorContext.ts',
  'src/agents/agentInstalls.ts', 'src/agents/continuations.ts', 'src/agents/continueSession.ts', 'src/agents/registryService.ts', 'src/agents/sessionRunner.ts', 'src/agents/signIn.ts', 'src/agents/signInStates.ts', 'src/agents/signOut.ts', 'src/agents/agentPicker.ts', 'src/agents/managedSession.ts', 'src/agents/workspaceTrust.ts',
  'src/edits/checkpoints.ts', 'src/edits/diffViews.ts', 'src/edits/editCommands.ts', 'src/edits/reviewActions.ts', 'src/edits/reviewRounds.ts', 'src/edits/reviewComments.ts',
  'src/terminals/agentTerminals.ts', 'src/terminals/terminalView.ts',
  // Composed messages that reach the user indirectly: an install error's message, how an agent ended, why a command
  // needs asking, the status bar's words, the pickers' rows, the protocol log page.
  'src/acp/agentConnection.ts',
  'src/agents/registry/archive.ts', 'src/agents/registry/archivePaths.ts', 'src/agents/registry/download.ts', 'src/agents/registry/installErrors.ts', 'src/agents/registry/installer.ts', 'src/agents/registry/packageManagers.ts',
  'src/agents/agentHistories.ts', 'src/agents/agentStarter.ts', 'src/agents/historyPicker.ts', 'src/agents/statusBar.ts', 'src/agents/startQuestions.ts', 'src/agents/startFailure.ts', 'src/agents/slowStarts.ts', 'src/agents/signInStatus.ts', 'src/agents/crashNotice.ts', 'src/agents/agentLog.ts', 'src/agents/protocolLogView.ts', 'src/agents/signInStates.ts',
  'src/terminals/commandRules.ts', 'src/terminals/commandClassifier.ts', 'src/terminals/shellWords.ts', 'src/terminals/shellSyntax.ts', 'src/terminals/commandUnwrap.ts',
  'src/agents/agentDefinitions.ts', 'src/session/session.ts', 'src/edits/editsStorage.ts', 'src/edits/changeTracker.ts', 'src/agents/registry/registryFetch.ts', 'src/terminals/terminalOutputModel.ts',
  'src/workspace/sensitivePaths.ts', 'src/edits/turnSnapshots.ts', 'src/edits/turnOutcomes.ts', 'src/edits/fileAccess.ts', 'src/panel/problemsText.ts', 'src/session/restartPolicy.ts', 'src/session/pastSessions.ts',
];

/** Calls where only these arguments are text; the others are syntax (a command rule's shell patterns). */
const TEXT_ARGUMENTS_ONLY: Readonly<Record<string, readonly number[]>> = { pattern: [2] };

/** DOM calls whose string arguments become text nodes. */
const TEXT_CALLS = new Set(['append', 'prepend', 'replaceChildren', 'createTextNode', 'after', 'before', 'replaceWith']);

/** Whether the text has something to translate: letters outside codicon references (`$(name)`) and placeholders. */
export function hasWords(text: string): boolean {
  return /\p{L}/u.test(text.replace(/\$\([^)]*\)/g, '').replace(/\{\w+\}/g, ''));
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string | undefined {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

/** `t(…)`, `l10n.t(…)`, `vscode.l10n.t(…)`. */
export function isTranslatorCall(node: ts.Node): node is ts.CallExpression {
  if (!ts.isCallExpression(node)) return false;
  const e = node.expression;
  if (ts.isIdentifier(e)) return e.text === 't';
  return ts.isPropertyAccessExpression(e) && e.name.text === 't' && (ts.isIdentifier(e.expression) ? e.expression.text === 'l10n' : ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'l10n');
}

function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  return undefined;
}

/** The text literals an expression's value is made of (through ?:, +, ??, ||, parentheses, arrays, `as`), none inside a translator call. */
function literalsOf(expr: ts.Expression | undefined): TextLiteral[] {
  if (!expr) return [];
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return [expr];
  if (ts.isTemplateExpression(expr)) return [expr];
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr) || ts.isSatisfiesExpression(expr)) return literalsOf(expr.expression);
  if (ts.isConditionalExpression(expr)) return [...literalsOf(expr.whenTrue), ...literalsOf(expr.whenFalse)];
  if (ts.isBinaryExpression(expr)) {
    const op = expr.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) return [...literalsOf(expr.left), ...literalsOf(expr.right)];
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalsOf(expr.right);
    return [];
  }
  if (ts.isArrayLiteralExpression(expr)) return expr.elements.flatMap((e) => literalsOf(ts.isSpreadElement(e) ? e.expression : e));
  if (isTranslatorCall(expr)) return expr.arguments.slice(1).flatMap((a) => literalsOf(a));
  return [];
}

/** The literal's text with template substitutions as `{0}`, `{1}`… (what a translator message would be). */
export function messageOf(node: TextLiteral): string {
  if (!ts.isTemplateExpression(node)) return node.text;
  return node.head.text + node.templateSpans.map((span, i) => `{${i}}${span.literal.text}`).join('');
}

export function scanSource(file: string, text: string): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  // `h()` is the webview's element builder only where it comes from its dom module (elsewhere `h` may build paths).
  const domBuilder = source.statements.some((s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && /\/dom$/.test(s.moduleSpecifier.text) && /\bh\b/.test(s.importClause?.getText() ?? '')) || /\bexport function h\b/.test(text);
  const inPage = /(^|[\\/])webview[\\/]/.test(file);
  // The page's own text, and what src/shared builds for it (link warnings, form errors): prose wherever it stands.
  const proseEverywhere = inPage || /(^|[\\/])src[\\/]shared[\\/]/.test(file) || HOST_PROSE_FILES.some((f) => file.replace(/\\/g, '/').endsWith(f));
  const found = new Map<TextLiteral, string>();
  const translated = new Set<string>();
  const add = (sink: string, expr: ts.Expression | undefined) => {
    for (const literal of literalsOf(expr)) if (hasWords(messageOf(literal)) && !found.has(literal)) found.set(literal, sink);
  };
  const comparisons: Array<{ literal: ts.StringLiteral | ts.TemplateExpression | ts.NoSubstitutionTemplateLiteral; sink: string }> = [];
  const arrays = new Map<string, ts.Expression>();
  const collect = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isArrayLiteralExpression(node.initializer)) arrays.set(node.name.text, node.initializer);
    else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isConditionalExpression(node.initializer)) arrays.set(node.name.text, node.initializer);
    ts.forEachChild(node, collect);
  };
  collect(source);
  const visit = (node: ts.Node): void => {
    if (isTranslatorCall(node)) {
      const first = node.arguments[0];
      // A translated button: what the notification returns is this translation.
      const parent = node.parent;
      // (`questions.ask(message, detail, ...choices)` is the host's modal question: its choices too.)
      const button = ts.isCallExpression(parent) && (NOTIFY.has(calleeName(parent) ?? '') || calleeName(parent) === 'ask') && parent.arguments.indexOf(node) > 0;
      if (button && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) translated.add(first.text);
      // A spread list of buttons: each translated entry in it.
      if (ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent) || ts.isParenthesizedExpression(parent) || ts.isConditionalExpression(parent)) {
        if (first && ts.isStringLiteral(first)) translated.add(first.text);
      }
      for (const arg of node.arguments.slice(1)) add('argument of a translated message', arg);
    } else if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const name = calleeName(node);
      const args = node.arguments ?? ts.factory.createNodeArray<ts.Expression>();
      if (name && (NOTIFY.has(name) || (name === 'ask' && !inPage))) {
        for (const arg of args) {
          if (ts.isObjectLiteralExpression(arg)) continue;
          // `...actions`: the buttons were listed in a variable of this file.
          if (ts.isSpreadElement(arg) && ts.isIdentifier(arg.expression)) add(name, arrays.get(arg.expression.text));
          else add(name, arg);
        }
      } else if (name === 'showQuickPick') add(name, args[0]);
      else if (name && MESSAGE_HELPERS.has(name) && !inPage) add(`${name}() message`, args[0]);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword && extendsError(node)) add('error message', args[0]);
      else if (name === 'setAttribute' && args[0] && ts.isStringLiteral(args[0]) && SHOWN_ATTRIBUTES.has(args[0].text)) add(`setAttribute('${args[0].text}')`, args[1]);
      else if (name === 'h' && domBuilder) args.slice(2).forEach((arg) => add('h() child', arg));
      else if (name && inPage && TEXT_CALLS.has(name)) args.forEach((arg) => add(`${name}()`, arg));
      else if (name === 'executeCommand' && args[0] && ts.isStringLiteral(args[0]) && args[0].text === 'vscode.diff') add('diff editor title', args[3]);
      else if (name === 'TreeItem' && ts.isNewExpression(node)) add('tree item label', args[0]);
      else if (name === 'MarkdownString' && ts.isNewExpression(node)) add('Markdown tooltip', args[0]);
      else if (name === 'createWebviewPanel') add('webview panel title', args[1]);
      else if (name === 'createOutputChannel') add('output channel name', args[0]);
      else if (name === 'createTerminal' && args[0] && ts.isObjectLiteralExpression(args[0])) {
        for (const p of args[0].properties) if (ts.isPropertyAssignment(p) && propertyName(p.name) === 'name') add('terminal name', p.initializer);
      }
    } else if (ts.isReturnStatement(node) && node.expression && USER_TEXT_FUNCTIONS.has(enclosingFunctionName(node) ?? '')) {
      add(`result of ${enclosingFunctionName(node)}()`, node.expression);
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(node.left) && node.left.text === 'message' && USER_TEXT_FUNCTIONS.has(enclosingFunctionName(node) ?? '')) {
      add(`message of ${enclosingFunctionName(node)}()`, node.right);
    } else if (ts.isPropertyAssignment(node)) {
      const name = propertyName(node.name);
      if (name && SHOWN_PROPERTIES.has(name)) add(`property ${name}`, node.initializer);
      // An input box's validation message is what the function returns.
      if (name === 'validateInput' && ts.isArrowFunction(node.initializer) && !ts.isBlock(node.initializer.body)) add('validateInput result', node.initializer.body);
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
      if (SHOWN_ASSIGNMENTS.has(node.left.name.text)) add(`assignment to .${node.left.name.text}`, node.right);
    } else if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.EqualsEqualsEqualsToken || node.operatorToken.kind === ts.SyntaxKind.ExclamationEqualsEqualsToken)) {
      for (const side of [node.left, node.right]) if (ts.isStringLiteral(side) || ts.isTemplateExpression(side) || ts.isNoSubstitutionTemplateLiteral(side)) comparisons.push({ literal: side, sink: 'comparison with a translated message' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (proseEverywhere) {
    const prose = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) && PROSE.test(messageOf(node)) && !found.has(node) && isPageText(node, inPage)) found.set(node, 'prose in the page');
      ts.forEachChild(node, prose);
    };
    prose(source);
  }
  // A literal compared with what a translated button or item returns must be translated too, or the choice never matches.
  for (const { literal, sink } of comparisons) if (translated.has(messageOf(literal)) && !insideTranslatorCall(literal) && !found.has(literal)) found.set(literal, sink);
  return [...found]
    .filter(([literal]) => !insideTranslatorCallAsMessage(literal) && !allowed(file, messageOf(literal)))
    .map(([node, sink]) => ({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, source: node.getText(), sink, node }))
    .sort((a, b) => a.node.getStart() - b.node.getStart());
}

/** Whether a literal in the page is text for a person: not markup, a selector, an event, a key, a comparison or a developer message. */
function isPageText(node: ts.Node, inPage: boolean): boolean {
  if (insideTranslatorCall(node) && insideTranslatorCallAsMessage(node)) return false;
  // HTML markup (the Markdown renderer's code-block frame): its words are wrapped where they are built.
  if (/^\s*</.test(messageOf(node as TextLiteral))) return false;
  let child: ts.Node = node;
  for (let n = node.parent; n; child = n, n = n.parent) {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n) || ts.isLiteralTypeNode(n) || ts.isTypeNode(n) || ts.isCaseClause(n) || ts.isElementAccessExpression(n) || ts.isJSDoc(n)) return false;
    if (ts.isTemplateSpan(n) || ts.isTemplateExpression(n)) continue;
    if (ts.isBinaryExpression(n)) {
      const op = n.operatorToken.kind;
      if (op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.InKeyword) return false;
      continue;
    }
    if (ts.isPropertyAssignment(n)) {
      if (n.name === child) return false;
      const name = propertyName(n.name);
      if (name && (PAGE_NON_TEXT_PROPERTIES.has(name) || name.startsWith('data-'))) return false;
      return true;
    }
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      if (n.expression === child) return false;
      const name = calleeName(n);
      // On the host, an Error thrown from a file of user text is what a notification or the panel shows.
      if (!inPage && name === 'Error' && ts.isNewExpression(n)) return true;
      if (name && PAGE_NON_TEXT_CALLS.has(name)) return false;
      if (name === 'setAttribute') return n.arguments?.[0] !== child && SHOWN_ATTRIBUTES.has(ts.isStringLiteral(n.arguments![0]) ? n.arguments![0].text : '');
      if (name === 'h' && n.arguments?.[0] === child) return false;
      if (name && name in TEXT_ARGUMENTS_ONLY) return TEXT_ARGUMENTS_ONLY[name].includes(n.arguments?.indexOf(child as ts.Expression) ?? -1);
      if (isTranslatorCall(n)) return true;
      return true;
    }
    // A constant or field holding prose is text, wherever it is used.
    if (ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n)) return n.name !== child;
    // What a function returns is text wherever it is used (the reason a download failed, a size).
    if (ts.isReturnStatement(n)) return true;
    if (ts.isArrayLiteralExpression(n) || ts.isConditionalExpression(n) || ts.isParenthesizedExpression(n) || ts.isArrowFunction(n) || ts.isPropertyDeclaration(n) || ts.isShorthandPropertyAssignment(n) || ts.isAsExpression(n)) continue;
    if (ts.isBinaryExpression(n)) continue;
    return false;
  }
  return false;
}

function enclosingFunctionName(node: ts.Node): string | undefined {
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionDeclaration(n)) return n.name?.text;
  return undefined;
}

/** A `super(…)` call in a class that extends `Error` (its message is what the user is shown). */
function extendsError(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isClassDeclaration(n) || ts.isClassExpression(n)) return !!n.heritageClauses?.some((c) => c.types.some((t) => /Error$/.test(t.expression.getText())));
  }
  return false;
}

function insideTranslatorCall(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) if (isTranslatorCall(n)) return true;
  return false;
}

/** The literal is the message of a translator call (possibly inside a ?: as the first argument). */
function insideTranslatorCallAsMessage(node: ts.Node): boolean {
  for (let n: ts.Node = node; n.parent; n = n.parent) {
    if (isTranslatorCall(n.parent)) return n.parent.arguments[0] === n;
  }
  return false;
}
