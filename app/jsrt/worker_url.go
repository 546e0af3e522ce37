package jsrt

// BlobWorkerURL is the reading worker's script (web/blobread.js), resolved
// against the site's base path when the page mounts.
var BlobWorkerURL = "/web/blobread.js"
