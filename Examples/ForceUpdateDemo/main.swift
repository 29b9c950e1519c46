import StreamsDemos

runForceUpdateDemo()
