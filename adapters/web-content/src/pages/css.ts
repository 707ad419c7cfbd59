// The pages' one stylesheet, served from this origin so the CSP can forbid inline style.
export const PAGES_CSS = `body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:1rem;color:#1d1d1f}
header{margin-bottom:1.5rem}a{color:#0b57d0}code,pre{font-family:ui-monospace,monospace;font-size:.9em}
pre{background:#f4f4f6;padding:.75rem;overflow:auto}time,.count,.meta{color:#666;font-size:.9em}
.articles li{margin:.5rem 0}.guidance{border-top:1px solid #ddd;margin-top:2rem;font-size:.95em}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem}
`;
