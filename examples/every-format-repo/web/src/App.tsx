export function App() {
  return <main aria-label="Parcels" />;
}
