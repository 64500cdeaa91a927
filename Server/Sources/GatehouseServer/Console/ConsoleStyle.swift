import GatehouseFlows
import GatehouseServerSupport

/// The console's style sheet, served at `/console/style.css` (no CDN, no build step): readable
/// type, tables that scroll on a phone, forms that stack on narrow screens.
enum ConsoleStyle {
    static let css = """
        :root { color-scheme: light dark; --fg: #1d1f24; --muted: #5d6470; --bg: #f7f7f8; --card: #fff;
          --line: #dcdfe4; --accent: #3556d8; --danger: #b42318; --ok: #17803d; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e8e9ec; --muted: #a3a9b4; --bg: #15171b;
          --card: #1e2127; --line: #343842; --accent: #8ea6ff; --danger: #ff8a80; --ok: #6fd08c; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
          color: var(--fg); background: var(--bg); }
        header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1.25rem;
          background: var(--card); border-bottom: 1px solid var(--line); }
        header .brand { font-weight: 700; margin-right: auto; }
        header nav { display: flex; flex-wrap: wrap; gap: 1rem; }
        header form { margin: 0; }
        a { color: var(--accent); }
        main { max-width: 72rem; margin: 0 auto; padding: 1.25rem; }
        h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
        h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
        section { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem;
          margin-bottom: 1rem; overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: .95rem; }
        th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { color: var(--muted); font-weight: 600; }
        td.mono, .mono { font-family: ui-monospace, "SF Mono", Menlo, monospace; font-size: .85rem;
          word-break: break-all; }
        pre { white-space: pre-wrap; word-break: break-word; margin: 0; font-size: .85rem; }
        form.inline { display: inline-flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: 0; }
        form.stack { display: grid; gap: .75rem; max-width: 24rem; }
        p:empty { display: none; }
        label { display: grid; gap: .25rem; font-weight: 600; }
        input, select, button { font: inherit; padding: .45rem .6rem; border-radius: .35rem;
          border: 1px solid var(--line); background: var(--card); color: var(--fg); }
        button { cursor: pointer; background: var(--accent); color: #fff; border-color: var(--accent); }
        button.danger { background: var(--danger); border-color: var(--danger); }
        button.quiet { background: transparent; color: var(--accent); }
        .notice { padding: .6rem .8rem; border-radius: .35rem; border: 1px solid var(--line); margin-bottom: 1rem; }
        .notice.error { border-color: var(--danger); color: var(--danger); }
        .notice.ok { border-color: var(--ok); color: var(--ok); }
        .muted { color: var(--muted); }
        .empty { color: var(--muted); padding: 1rem 0; }
        .pager { display: flex; gap: 1rem; margin-top: .75rem; }
        .filters { display: flex; flex-wrap: wrap; gap: .3rem .9rem; margin: .75rem 0 .5rem; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
        dt { color: var(--muted); }
        dd { margin: 0; word-break: break-word; }
        svg.chart { display: block; width: 100%; height: auto; border-bottom: 1px solid var(--line); }
        svg.chart .login, .key.login { fill: var(--accent); background: var(--accent); }
        svg.chart .login_failed, .key.login_failed { fill: var(--danger); background: var(--danger); }
        svg.chart .user_signedup, .key.user_signedup { fill: var(--ok); background: var(--ok); }
        svg.chart .anonymous_signin, .key.anonymous_signin { fill: var(--muted); background: var(--muted); }
        ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 1rem; padding: 0; margin: .5rem 0 0; }
        .key { display: inline-block; width: .8rem; height: .8rem; margin-right: .35rem; border-radius: .15rem; }
        @media (max-width: 40rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: .4rem; }
          main { padding: .75rem; } }
        """
}
