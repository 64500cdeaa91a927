public import Gatehouse
