export const flags = { newLabels: { owner: "web", remove: "2027-01-01" } };
