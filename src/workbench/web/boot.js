// Runs after the page's scripts: when the app module could not load (the front-end libraries missing from
// this build), say what to do instead of leaving "Loading…" on screen.
window.addEventListener('load', () => {
  setTimeout(() => {
    if (!window.__lakeqaStarted) {
      document.getElementById('app').innerHTML =
        '<div class="fatal"><h1>The workbench could not start</h1><p>Its front-end libraries are missing from ' +
        'this build of lakeqa. Run <code>scripts/setup</code> (it fetches them from npm), rebuild, and reload.</p></div>';
    }
  }, 3000);
});
