package templates

// PreviewInfo is what a preview mail says of itself besides the would-be
// report (Data.Report) and the orders tried (Data.Orders).
type PreviewInfo struct {
	// Held: the orders tried are the ones the player sent for the step
	// (PREVIEW without orders); Default: they sent none, so their
	// default was tried.
	Held, Default bool
	// Left is how many more previews of this step the seat may ask for.
	Left int
}
