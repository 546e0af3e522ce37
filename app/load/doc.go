// Package load is the page's load pipeline: it reads captures from the
// browser's Blobs through the reading worker into one timeline, reports
// the read's progress, gives up once the page begins another read, keeps
// within the load limits, fetches a capture a link names, fetches an
// event's bytes again, and tells the document how each read ended. The
// components in package app call it (Open, FetchLink, EventsJSON) and
// show what it makes; it holds no user interface, so that it can move to
// a worker as a package.
package load
