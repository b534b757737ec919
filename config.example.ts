// Every aish config key, with its default and what it does: loading this file as it is changes
// nothing (a test holds it to that); lines marked `e.g.` and commented out are examples to adapt.
// Copy it to one of:
//   ~/.config/aish/config.ts, ~/aish.config.ts, .aishrc.json / .aishrc.yaml (same keys, no
//   comments), or pass --config PATH. In a project directory (./aish.config.ts, or any parent
//   up to $HOME) it applies only once you trust it (docs/security.md "Project trust").
// Unknown keys and bad values stop start-up with a list of every problem (exit 2).
import { defineConfig } from 'aish';

export default defineConfig({
  // Model presets: any OpenAI-compatible chat-completions endpoint. Defining `models` replaces
  // the built-in presets (fast and deep from OPENAI_BASE_URL / OPENAI_MODEL, default
  // http://127.0.0.1:8080/v1; openai, openrouter). The endpoint may end in /chat/completions (used as
  // is), /v1 (/chat/completions is added) or be a bare base URL (/v1/chat/completions is added).
  // e.g.:
  // models: {
  //   fast: {
  //     endpoint: 'http://127.0.0.1:8080/v1', // llama.cpp server; Ollama: http://127.0.0.1:11434/v1
  //     model: 'qwen2.5-coder-7b-instruct', // the name the server knows
  //     key_env: 'LLAMA_API_KEY', // env var holding a bearer token; never written anywhere
  //     temperature: 0.2, // default 0.2
  //     max_tokens: 2048, // omitted from the request unless set
  //     timeout_ms: 60_000, // connect / first byte / gap between chunks; default 60000
  //     headers: {}, // extra HTTP headers for this endpoint
  //     price_in: 0, price_out: 0, // per million tokens, for :cost (unset: 0, a local server)
  //     tool_choice: 'auto', // sent with requests that carry tools: auto | none | required | { type: 'function', function: { name } }
  //   },
  //   deep: { endpoint: 'http://127.0.0.1:8080/v1', model: 'qwen3-32b' },
  //   cloud: { endpoint: 'https://openrouter.ai/api/v1', model: 'anthropic/claude-sonnet-4', key_env: 'OPENROUTER_API_KEY' },
  // },
  default_model: 'fast', // default: "fast" when it exists, else the first preset

  shell: {
    // program: '/bin/zsh',               // default: $SHELL, else /bin/sh (docs/shell.md)
    // One bash, zsh or fish kept for the whole session behind a pseudo-terminal, reading your rc
    // file (config.fish): aliases, functions, variables, abbreviations, venvs and jobs live on. false (or another shell): each line
    // runs in its own `<program> -c <line>`.
    session: true,
    start_timeout_ms: 8000, // how long your rc file may take before the shell starts without it
    // A list replaces the built-in command list; { add, remove } edits it. A line whose first
    // word is in it goes to the shell (see `:why <line>`).
    known_commands: { add: [], remove: [] }, // e.g. { add: ['cowsay', 'terraform'], remove: ['ssh'] }
    confirm_cmd: true, // ask `execute '<cmd>'? [y/N]` before running a model's CMD: line
    capture_max_chars: 16_000, // output kept for the model per command (head + tail)
    // Without a session: programs that get the terminal and are not captured (editors, pagers,
    // ssh...). Same list-or-{add,remove} form as known_commands. The session shell needs no list.
    interactive: { add: [], remove: [] }, // e.g. { add: ['k9s'] }
    // prompt: '[{model}] {cwd_short} {last_status}> ', // also {cwd} {ctx_used} {ctx_max} {turn} {mode}
    // true: your shell's own prompt (PS1 as the session's shell draws it, starship too), then aish's sign
    prompt_from_shell: false,
    // A command's frame: 'full' (a rule above and below), 'compact' (no rule above; one dim line
    // below only when it failed or ran longer than a second) or 'none'. The terminal's marks are the same.
    frame: 'full',
  },

  context: {
    max_turns: 40, // turns kept before the oldest exchange is evicted
    // Estimated tokens (chars / 4) kept in the conversation. Unset: 3/4 of the context the preset's
    // server says it holds (llama.cpp, vLLM, OpenRouter, Ollama; asked once, in the background),
    // else 16 384. The output of commands takes at most half of it (docs/usage.md "The context").
    // token_budget: 16_384,
    // false (for chat templates that reject role "tool"): the calls go as the assistant's text and
    // their results as `[tool: name]` blocks in a user message where the tool turns were, joined to
    // the next user turn when it follows directly. Not moved to the next turn you type, as the seed
    // had it: the model would see results after its own answer to them, and every request would
    // change the prompt's prefix, which servers cache.
    use_tool_role: true,
    summarize_on_evict: false, // summarize evicted turns instead of dropping them silently
    // summarizer_model: 'fast',         // preset for summaries (default: `fast` when it exists, else default_model)
    max_summary_chars: 2000, // a longer summary is summarized again
    // Inside a git work tree the system message carries a [project] block: the repository's name,
    // the branch and the tracked files as a tree, deepest levels folded first past max_chars.
    project: { max_chars: 2000 },
  },

  broker: {
    // The most of one reply aish reads (text and tool-call arguments, in chars). Past it aish stops
    // reading, keeps what came marked `[reply cut at N chars]`, and runs none of its calls or CMD: lines.
    max_reply_chars: 4_000_000,
    max_tool_calls: 128, // calls of one reply that run; the rest are answered as not run
  },

  history: {
    // dir: '~/.local/state/aish',      // default: $XDG_STATE_HOME/aish; sessions/ and input_history live here
    input_history_size: 1000, // lines of input history kept
  },

  mcp: {
    servers: {
      // Streamable HTTP (falls back to legacy HTTP+SSE only on 400/404/405):
      // files: { url: 'http://127.0.0.1:8080/mcp', auth_env: 'FILES_MCP_TOKEN' },
      // stdio:
      // everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: {}, cwd: '/tmp' },
      // Behind OAuth 2.1 (docs/mcp.md "OAuth"): with no `oauth` key aish still logs in when the
      // server asks for it (`:mcp login tracker`); every `oauth` key is optional.
      // tracker: {
      //   url: 'https://tracker.example.com/mcp',
      //   oauth: {
      //     client_id: 'aish-desktop', // a pre-registered client (else a metadata document, else registration)
      //     client_secret_env: 'TRACKER_CLIENT_SECRET', // its secret, if it has one
      //     client_metadata_url: 'https://example.com/aish/client.json', // a client-ID metadata document
      //     scopes: ['issues:read'], // asked for when the server names none
      //     grant: 'authorization_code', // or 'client_credentials' for machine use (no browser)
      //     private_key_env: 'TRACKER_CLIENT_KEY', // PEM key: authenticate with private_key_jwt
      //   },
      // },
      // A slow server may have its own call timeout (overrides call_timeout_ms below):
      // search: { url: 'http://127.0.0.1:9000/mcp', timeout_ms: 120_000 },
      // and its own connect limit (default 60 s for npx, uvx, pnpm dlx, bunx; else 10 s):
      // memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], connect_timeout_ms: 90_000 },
      // Roots (docs/mcp.md "Roots"): server-filesystem takes them in place of its own directories.
      // Unset: mcp.roots below; 'cwd' follows `cd`; false: none; or a list of directories.
      // notes: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/notes'], roots: false },
    },
    // Exact tool names (`files__read_file`) or `alias__*` for a whole server; the original's map
    // form `{ 'files__read_file': true, 'web__*': true }` works too.
    auto_approve: [],
    max_tool_depth: 8, // model round trips with tool calls per request
    call_timeout_ms: 60_000, // per tool call
    max_result_chars: 16_000, // a longer tool result is cut (head and tail kept)
    // Most tools in one request. Past it the likeliest are sent (tools found with aish__find_tools,
    // tools used in this conversation, your words, list/search/read verbs) plus aish__find_tools.
    max_tools: 32,
    // Tool groups for `:tools enable|disable <group>`: tool names or `alias__*` patterns.
    groups: {
      // files: ['files__*'],
      // web: ['fetch__fetch'],
    },
    // A server's form (elicitation) when nobody is at a terminal (piped, -p): 'decline', or
    // 'defaults' to accept with the form's defaults when every required field has one.
    elicitation: 'decline',
    // A server's request for a model answer (sampling) when nobody can confirm it: 'deny' or 'allow'.
    sampling: 'deny',
    // The roots of servers without their own `roots`: false offers none (a server keeps the
    // directories it was started with), 'cwd' the current directory (following `cd`), or a list
    // such as ['.', '~/notes']. Never the home folder, a folder above it or /.
    roots: false,
  },

  tools: {
    // aish's own tools, offered like MCP tools: aish__current_date and aish__find_tools run without
    // asking; aish__read_file and aish__list_dir (read-only, confined to the current directory)
    // ask like any tool unless `mcp.auto_approve` lists them. true: all, false: none, or a list.
    builtin: true, // e.g. ['aish__current_date', 'aish__list_dir']
  },

  routing: {
    auto: false, // pick a preset per request from the text (code / reasoning / default)
    // Default (when unset): code → deep and reasoning → cloud, each when that preset exists;
    // default → the active model.
    // classes: { code: 'fast', reasoning: 'deep' }, // e.g.
    cloud_fallback: false, // retry a failed local request once on fallback_model
    // fallback_model: 'cloud',         // default: `cloud` when that preset exists
  },

  norris: {
    max_steps: 20, // steps of the autonomous loop before it stops
    second_opinion: false, // ask the `deep` preset whether a command is destructive
    // Each step runs in a sandbox (Linux, bubblewrap): no network, writes only in the work tree,
    // the places secrets live unreadable. "off": as if no sandbox could be built.
    sandbox: 'auto',
    network: false, // let sandboxed steps reach the network
    hidden_paths: [], // more paths a step cannot read, e.g. ['~/.config/rclone', '~/secrets']
    unsandboxed: 'ask', // without a sandbox: 'ask' before every step, or 'allow' them
    preview: false, // run each step in a preview first; HALT when it would delete or change a file that existed
  },

  // A checkpoint of the tree (the git work tree top, else the directory) before every approved
  // CMD: line and Norris step; `:undo` puts the files back (docs/undo.md).
  undo: {
    enabled: true,
    typed: false, // checkpoint the lines you type yourself too
    keep: 50, // checkpoints kept per tree
    max_files: 20000, // a tree with more files gets none
    max_file_bytes: 10485760, // larger files are left out (10 MB)
    // `p` at `execute '<cmd>'? [y/N/e/p]` runs the command in a throwaway copy (Linux) and lists
    // what it would change; past this it is stopped.
    preview_timeout_ms: 10000,
  },

  memory: {
    enabled: true, // inject remembered facts as [background]
    max_inject_chars: 2000,
    // summarizer_model: 'fast', // preset :memory summarize asks (default: context.summarizer_model)
  },

  ui: {
    show_stats: false, // one line of tokens, tool calls and time after each model reply
  },

  // What aish tells the terminal it runs in, on a terminal only (docs/usage.md "Terminal integration").
  terminal: {
    // OSC 133 marks around the prompt and each command (jump between prompts, select a command's
    // output), OSC 7 with the directory (a new tab opens there). false: none of it, and no title.
    integration: true,
    title: true, // the window title: the directory at the prompt, the command while it runs
  },

  // Suggestions from a model for the line you are typing, shown after it in dim italics once you
  // stop typing for idle_ms (Right, End or C-f takes one; the next key cancels the request).
  // Never asked for a line that looks secret; counted in :cost as `suggest`.
  suggest: {
    model: false, // true: the preset your lines go to (:model); or a preset's name, e.g. 'fast'
    idle_ms: 400, // the pause before asking, from 50 to 10000
  },

  // Commands whose output is private: kept as a block with its text withheld, never sent to a
  // model nor written to the session log or any file (`:private on|off` does it for a while,
  // `:private <command>` for one line). Patterns as in permissions; a list replaces this default.
  privacy: {
    private_commands: ['pass *', 'vault *', 'op *', 'gpg *'],
  },

  // Rules for the model's CMD: lines, matched against each command of a compound line (`a && b`
  // is two commands), both as written and unwrapped (`sudo curl x` is also `curl x`, `bash -c '…'`
  // and `$(…)` are commands of their own). A pattern matches the whole command; `*` after a space
  // matches any text (`sudo *`), glued to a word it means that word and any arguments: `git diff*`
  // matches `git diff --stat`, not `git difftool`. deny beats confirm beats allow. `confirm` asks
  // even with confirm_cmd off; `allow` runs without asking even with it on when every command
  // matches in both forms, except that a destructive command (rm -r, git push --force, ...) or
  // one that changes PATH, LD_PRELOAD, SHELL, ... always asks.
  // `:perms` shows the rules, `:perms check <command>` tests one.
  permissions: {
    allow: [], // e.g. ['git status', 'git diff*', 'ls*']
    confirm: [], // e.g. ['git push*']
    deny: [], // e.g. ['sudo *', 'curl * | sh']
  },
});
