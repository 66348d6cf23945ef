// The integrator's React app of test/e2e/docuseal-react.e2e.ts, as its own code would be: `@docuseal/react`'s
// components with their callbacks, which record what they receive on window. The query says which
// component and with what. The e2e file bundles it with esbuild.
import React from 'react';
import { createRoot } from 'react-dom/client';
import { DocusealBuilder, DocusealForm } from '@docuseal/react';

const query = new URLSearchParams(window.location.search);
window.received = { init: 0, load: [], complete: [], decline: [], save: [] };
const record = (name) => (detail) => window.received[name].push(detail);

function App() {
  if (query.get('component') === 'builder') {
    return React.createElement(DocusealBuilder, {
      host: query.get('host'),
      token: query.get('token'),
      onLoad: record('load'),
      onSave: record('save'),
    });
  }
  return React.createElement(DocusealForm, {
    host: query.get('host'),
    src: query.get('src'),
    email: query.get('email'),
    values: { 'Full name': 'Ada Lovelace' },
    onInit: () => (window.received.init += 1),
    onLoad: record('load'),
    onComplete: record('complete'),
    onDecline: record('decline'),
  });
}

createRoot(document.getElementById('root')).render(React.createElement(App));
