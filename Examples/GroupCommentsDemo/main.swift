import StreamsDemos

runGroupCommentsDemo()
