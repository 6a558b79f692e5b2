import { App } from '@modelcontextprotocol/ext-apps';
import { showHistory, showMapAnswer, showOverview, showProblem, type CallToolResult, type ViewContext } from './views.ts';
import type { ViewFacts as Facts } from '../../core/view-facts.ts';

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
  if (result.isError) return showProblem(ctx, root, result);
  const env = result.structuredContent;
  if (!env || typeof env !== 'object') return showProblem(ctx, root, result);
  if (facts.view === 'overview') return showOverview(ctx, env);
  if (facts.view === 'history') return showHistory(ctx, env);
  return showMapAnswer(ctx, root, env);
}

app.ontoolinput = (params) => {
  args = params.arguments ?? {};
};
app.ontoolresult = (result) => show(result as CallToolResult);
app.ontoolcancelled = () => {
  root.replaceChildren(Object.assign(document.createElement('p'), { className: 'status', textContent: 'The tool call was cancelled.' }));
};
void app.connect();
