// Names the page gives the widgets' JavaScript: plotly.js sets window.Plotly (the vendored
// UMD bundle, or the one a standalone ESM runs first).
interface Window {
  Plotly?: any;
}
