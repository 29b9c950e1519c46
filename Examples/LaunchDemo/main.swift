import StreamsDemos

runLaunchDemo()
