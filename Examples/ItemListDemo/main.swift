import StreamsDemos

runItemListDemo()
