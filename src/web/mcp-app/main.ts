import { App } from '@modelcontextprotocol/ext-apps';
import './view.css';
import { showAnswer, showHistory, showOverview, type CallToolResult, type ViewContext } from './views.ts';
import type { ViewFacts as Facts } from '../wire.ts';
import { el } from '../components/types.ts';

/**
 * The MCP Apps view: the host hands it the tool's arguments and result (ui/notifications/
 * tool-input, tool-result) and it draws them; buttons in it ask the server again through the host
 * (tools/call), and the answer replaces what is shown.
 */
const facts = JSON.parse(document.getElementById('stadtdaten-facts')?.textContent ?? '{}') as Facts;
const root = document.getElementById('app')!;
const app = new App({ name: `stadtdaten-${facts.view}`, version: facts.version }, {}, { autoResize: true });

let args: Record<string, unknown> = {};

function toolName(): string | null {
  return app.getHostContext()?.toolInfo?.tool.name ?? null;
}

const ctx: ViewContext = {
  facts,
  root,
  call: async (name, callArgs) => {
    const result = await app.callServerTool({ name, arguments: callArgs });
    return result as CallToolResult;
  },
  tool: toolName,
  args: () => args,
};

function show(result: CallToolResult) {
  if (facts.view === 'overview') showOverview(ctx, result);
  else if (facts.view === 'history') showHistory(ctx, result);
  else showAnswer(ctx, root, result);
}

app.ontoolinput = (params) => {
  args = params.arguments ?? {};
};
app.ontoolresult = (result) => show(result as CallToolResult);
app.ontoolcancelled = () => {
  root.replaceChildren(el('p', { class: 'status' }, 'The tool call was cancelled.'));
};
void app.connect();
