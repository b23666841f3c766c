package pkg

// Exported is named by the README.
const Exported = 1
